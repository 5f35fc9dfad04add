package whmcsfake

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The fake's records. Amounts are in hundredths: the fake handles two-decimal currencies only.
type client struct {
	ID, UserID     int
	FirstName      string
	LastName       string
	Email          string
	Password       string
	Country        string
	Language       string
	IP             string
	CurrencyID     int
	Status         string
	MarketingOptIn bool
	Created        string
}

type order struct {
	ID            int
	OrderNum      string
	ClientID      int
	Date          string
	PromoCode     string
	Amount        int64
	PaymentMethod string
	InvoiceID     int
	Status        string // Pending, Active, Cancelled, Fraud
	IP            string
	AffID         string
	ServiceIDs    []int
	PriceOverride bool
	UpgradeID     int
}

type item struct {
	ID          int
	Type        string // Hosting, PromoHosting, Upgrade
	RelID       int
	Description string
	Amount      int64
}

type invoice struct {
	ID            int
	ClientID      int
	Date, DueDate string
	DatePaid      string
	Total         int64
	Status        string // Unpaid, Paid, Cancelled
	PaymentMethod string
	Currency      string
	Items         []item
}

type transaction struct {
	ID          int
	ClientID    int
	Gateway     string
	Date        string
	Description string
	AmountIn    int64
	AmountOut   int64 // a refund: money paid back out
	Fees        int64
	TransID     string
	InvoiceID   int
}

type service struct {
	ID, ClientID, OrderID, PID int
	RegDate                    string
	Domain                     string // free text on a product needing no domain (AddOrder domain[])
	Cycle                      string // monthly … triennially, onetime, free
	NextDueDate                string
	Status                     string // Pending, Active, Suspended, Terminated, Cancelled, Fraud
	Username, Password         string
	FirstPayment, Recurring    int64
	PaymentMethod              string
	CustomFields               map[int]string
	ConfigOptions              map[int]int // option id → quantity (yes/no: 1)
	Notes                      string
	SuspensionReason           string
}

type upgrade struct {
	ID        int
	ServiceID int
	Options   map[int]int
	Recurring int64
	Paid      bool
}

// ModuleCall is one call of the fake IPTV module's functions.
type ModuleCall struct {
	ServiceID int    `json:"serviceId"`
	Function  string `json:"function"` // CreateAccount, SuspendAccount, UnsuspendAccount, TerminateAccount, ChangePackage, Renew, or a custom function
}

// parseAmount reads a decimal with at most 2 decimals ("12.99", "-1.00", "10") as hundredths.
func parseAmount(s string) (int64, error) {
	s = strings.TrimSpace(s)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(frac) > 2 || strings.Trim(whole+frac, "0123456789") != "" {
		return 0, fmt.Errorf("amount %q", s)
	}
	n, err := strconv.ParseInt(whole+frac+strings.Repeat("0", 2-len(frac)), 10, 64)
	if neg {
		n = -n
	}
	return n, err
}

// formatAmount writes hundredths as WHMCS does: "12.99", "-1.00", "0.00".
func formatAmount(n int64) string {
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	return fmt.Sprintf("%s%d.%02d", sign, n/100, n%100)
}

// percentOf is value% of n, rounded half away from zero.
func percentOf(n int64, value string) int64 {
	pct, ok := new(big.Rat).SetString(value)
	if !ok {
		return 0
	}
	r := new(big.Rat).Mul(new(big.Rat).SetInt64(n), pct)
	r.Quo(r, big.NewRat(100, 1))
	num, den := new(big.Int).Abs(r.Num()), r.Denom()
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	if m.Lsh(m, 1).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if r.Sign() < 0 {
		q.Neg(q)
	}
	return q.Int64()
}

func (f *Fake) product(pid int) (Product, bool) {
	for _, p := range f.seed.Products {
		if p.PID == pid {
			return p, true
		}
	}
	return Product{}, false
}

func (f *Fake) option(id int) (ConfigOption, bool) {
	for _, o := range f.seed.ConfigOptions {
		if o.ID == id {
			return o, true
		}
	}
	return ConfigOption{}, false
}

func (f *Fake) groupName(gid int) string {
	for _, g := range f.seed.Groups {
		if g.ID == gid {
			return g.Name
		}
	}
	return ""
}

// cycleMonths is a cycle's length in months; 0 for onetime and free.
func cycleMonths(c string) int {
	for _, cy := range cycles {
		if cy.name == c {
			return cy.months
		}
	}
	return 0
}

// cycleDisplay is the cycle as GetClientsProducts writes it ("Semi-Annually", "One Time").
func cycleDisplay(c string) string {
	for _, cy := range cycles {
		if cy.name == c {
			return cy.display
		}
	}
	switch c {
	case "onetime":
		return "One Time"
	case "free":
		return "Free Account"
	}
	return c
}

// priceField is the pricing field a product sold on cycle is priced in: one-time products keep
// their price in "monthly", as WHMCS stores it.
func priceField(p Product, cycle string) string {
	if p.PayType == "onetime" {
		return "monthly"
	}
	return cycle
}

// productPrice is the price of p on cycle in currency cur, and its setup fee; ok is false when
// the cycle is not sold ("-1.00" or absent).
func (f *Fake) productPrice(p Product, cycle, cur string) (price, setup int64, ok bool) {
	switch p.PayType {
	case "free":
		return 0, 0, cycle == "free" || cycle == "onetime" || cycle == ""
	case "onetime":
		if cycle != "onetime" {
			return 0, 0, false
		}
	default:
		if cycleMonths(cycle) == 0 {
			return 0, 0, false
		}
	}
	ps := p.Pricing[cur]
	v, has := ps[priceField(p, cycle)]
	if !has {
		return 0, 0, false
	}
	price, err := parseAmount(v)
	if err != nil || price < 0 {
		return 0, 0, false
	}
	for _, cy := range cycles {
		if cy.name == priceField(p, cycle) && ps[cy.setup] != "" {
			setup, _ = parseAmount(ps[cy.setup])
		}
	}
	return price, setup, true
}

// optionPrice is the price of qty of option o on cycle (a yes/no or quantity option: its first
// sub-option's price per unit; a dropdown: the chosen sub-option's, qty being its id).
func (f *Fake) optionPrice(p Product, o ConfigOption, qty int, cycle, cur string) int64 {
	field := priceField(p, cycle)
	if p.PayType == "free" {
		return 0
	}
	unit := func(so SubOption) int64 {
		a, err := parseAmount(so.Pricing[cur][field])
		if err != nil || a < 0 {
			return 0
		}
		return a
	}
	switch o.Type {
	case OptionQuantity:
		return unit(o.Options[0]) * int64(qty)
	case OptionYesNo:
		if qty > 0 {
			return unit(o.Options[0])
		}
		return 0
	default:
		for _, so := range o.Options {
			if so.ID == qty {
				return unit(so)
			}
		}
	}
	return 0
}

// promotionFor finds code's promotion if it applies to pid on cycle today (WHMCS's rules the
// fake keeps: applies-to, cycles, dates, max uses).
func (f *Fake) promotionFor(code string, pid int, cycle string) *Promotion {
	if code == "" {
		return nil
	}
	today := f.today()
	for _, p := range f.promotions {
		if !strings.EqualFold(p.Code, code) {
			continue
		}
		if !slices.Contains(splitInts(p.AppliesTo), pid) {
			return nil
		}
		if p.Cycles != "" && !slices.ContainsFunc(strings.Split(p.Cycles, ","), func(c string) bool {
			c = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(c), "-", ""))
			return c == cycle
		}) {
			return nil
		}
		if d := p.StartDate; d != "" && d != noDate && today < d {
			return nil
		}
		if d := p.ExpirationDate; d != "" && d != noDate && today > d {
			return nil
		}
		if p.MaxUses > 0 && p.Uses >= p.MaxUses {
			return nil
		}
		return p
	}
	return nil
}

// discount is what promotion p takes off amount.
func discount(p *Promotion, amount int64) int64 {
	switch p.Type {
	case "Percentage":
		return min(percentOf(amount, p.Value), amount)
	case "Fixed Amount":
		v, _ := parseAmount(p.Value)
		return min(v, amount)
	case "Price Override":
		v, _ := parseAmount(p.Value)
		return max(amount-v, 0)
	}
	return 0
}

func splitInts(s string) []int {
	var out []int
	for _, part := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(part)); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

// addMonths moves a YYYY-MM-DD date by n months. It mirrors WHMCS, not Streamcart: WHMCS's Billing
// Logic documents only that a paid invoice moves the service's Next Due Date "forward one billing
// cycle" from its current value (no registration-day anchor, unlike Streamcart's period.AddMonths),
// and says nothing of month ends; the fake keeps Go's AddDate there (31 January + 1 month = 3 March,
// as PHP's "+1 month" gives), unverified against a real WHMCS (docs/whmcs.md). Streamcart reads the
// due date WHMCS answers and computes none in WHMCS mode.
func addMonths(date string, n int) string {
	t, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return date
	}
	return t.AddDate(0, n, 0).Format(time.DateOnly)
}

func (f *Fake) addClient(first, last, email, password, country string, currencyID int, ip string) *client {
	c := &client{ID: len(f.clients) + 1, FirstName: first, LastName: last, Email: email, Password: password,
		Country: country, CurrencyID: currencyID, Status: "Active", IP: ip, Created: f.today()}
	c.UserID = c.ID
	f.clients = append(f.clients, c)
	return c
}

func (f *Fake) clientByID(id int) *client {
	for _, c := range f.clients {
		if c.ID == id {
			return c
		}
	}
	return nil
}

func (f *Fake) clientByEmail(email string) *client {
	for _, c := range f.clients {
		if strings.EqualFold(c.Email, strings.TrimSpace(email)) {
			return c
		}
	}
	return nil
}

func (f *Fake) orderByID(id int) *order {
	for _, o := range f.orders {
		if o.ID == id {
			return o
		}
	}
	return nil
}

func (f *Fake) invoiceByID(id int) *invoice {
	for _, i := range f.invoices {
		if i.ID == id {
			return i
		}
	}
	return nil
}

func (f *Fake) serviceByID(id int) *service {
	for _, s := range f.services {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// paid is what the invoice's transactions brought in.
func (f *Fake) paid(inv *invoice) int64 {
	var sum int64
	for _, t := range f.transactions {
		if t.InvoiceID == inv.ID {
			sum += t.AmountIn
		}
	}
	return sum
}

// moduleCreate runs the module's CreateAccount: the line exists, the service is Active with
// its credentials (kept when set beforehand, as a module using WHMCS's preset ones does).
func (f *Fake) moduleCreate(s *service) {
	if p, _ := f.product(s.PID); p.Module == "" {
		// A product without a module (a reseller plan whose credits the shop keeps): WHMCS sets
		// the service up by making it Active; no module runs, no username is made.
		s.Status = "Active"
		return
	}
	if s.Username == "" {
		s.Username = fmt.Sprintf("whmcs%05d", s.ID)
	}
	if s.Password == "" {
		s.Password = randomHex(6)
	}
	s.Status = "Active"
	f.module = append(f.module, ModuleCall{s.ID, "CreateAccount"})
}

// settle runs what a fully paid invoice sets off: each new service whose product sets up on
// payment is created, recurring services move their next due date one cycle, an overdue
// suspension is lifted, a paid upgrade changes the package.
func (f *Fake) settle(inv *invoice) {
	for _, it := range inv.Items {
		switch it.Type {
		case "Hosting":
			s := f.serviceByID(it.RelID)
			if s == nil {
				continue
			}
			p, _ := f.product(s.PID)
			renewal := s.Status != "Pending"
			if m := cycleMonths(s.Cycle); m > 0 {
				s.NextDueDate = addMonths(s.NextDueDate, m)
			}
			switch {
			case s.Status == "Pending" && p.Autosetup == SetupOnPayment:
				f.moduleCreate(s)
			case renewal && s.Status == "Suspended" && s.SuspensionReason == "Overdue on Payment":
				s.Status, s.SuspensionReason = "Active", ""
				f.module = append(f.module, ModuleCall{s.ID, "UnsuspendAccount"})
			}
			if renewal {
				f.module = append(f.module, ModuleCall{s.ID, "Renew"})
			}
		case "Upgrade":
			for _, u := range f.upgrades {
				if u.ID != it.RelID || u.Paid {
					continue
				}
				u.Paid = true
				if s := f.serviceByID(u.ServiceID); s != nil {
					for id, q := range u.Options {
						s.ConfigOptions[id] = q
					}
					s.Recurring = u.Recurring
					f.module = append(f.module, ModuleCall{s.ID, "ChangePackage"})
				}
				if o := f.orderForUpgrade(u.ID); o != nil {
					o.Status = "Active"
				}
			}
		}
	}
}

func (f *Fake) orderForUpgrade(id int) *order {
	for _, o := range f.orders {
		if o.UpgradeID == id {
			return o
		}
	}
	return nil
}

// SuspendDays is how many days after its due date the fake's cron suspends an unpaid service;
// RenewalDays is how many days before the due date it invoices a renewal (WHMCS's default).
const (
	SuspendDays = 3
	RenewalDays = 14
)

// CronResult is what one cron run did.
type CronResult struct {
	Invoices  []int `json:"invoices"`  // renewal invoices made
	Suspended []int `json:"suspended"` // services suspended for an overdue invoice
}

// RunCron is WHMCS's daily cron at the fake's time: a renewal invoice for every active recurring
// service due within RenewalDays that has none yet, and the suspension (module SuspendAccount,
// reason "Overdue on Payment") of a service whose renewal invoice is SuspendDays overdue.
func (f *Fake) RunCron() CronResult { return f.RunCronAt(f.now()) }

// RunCronAt is WHMCS's daily cron run as on the day of at, as a seller trying renewals runs
// WHMCS's cron (`php -q crons/cron.php`) with the server's date moved: the invoices it makes
// are dated that day. The fake's own clock does not move (`POST /_fake/cron?date=YYYY-MM-DD`).
func (f *Fake) RunCronAt(at time.Time) CronResult {
	f.mu.Lock()
	defer f.mu.Unlock()
	var res CronResult
	today := at.UTC()
	for _, s := range f.services {
		if (s.Status != "Active" && s.Status != "Suspended") || cycleMonths(s.Cycle) == 0 {
			continue
		}
		due, err := time.Parse(time.DateOnly, s.NextDueDate)
		if err != nil {
			continue
		}
		open := f.renewalInvoice(s)
		if open == nil && s.Status == "Active" && !today.Before(due.AddDate(0, 0, -RenewalDays)) {
			c := f.clientByID(s.ClientID)
			p, _ := f.product(s.PID)
			inv := &invoice{ID: len(f.invoices) + 1, ClientID: s.ClientID, Date: today.Format(time.DateOnly), DueDate: s.NextDueDate,
				DatePaid: noDate + " 00:00:00", Total: s.Recurring, Status: "Unpaid", PaymentMethod: s.PaymentMethod,
				Currency: f.currencyByID(c.CurrencyID).Code}
			inv.Items = []item{{ID: f.nextItem(), Type: "Hosting", RelID: s.ID, Amount: s.Recurring,
				Description: fmt.Sprintf("%s - %s (%s - %s)", p.Name, s.Username, s.NextDueDate, addMonths(s.NextDueDate, cycleMonths(s.Cycle)))}}
			f.invoices = append(f.invoices, inv)
			res.Invoices = append(res.Invoices, inv.ID)
			continue
		}
		if open != nil && s.Status == "Active" && today.After(due.AddDate(0, 0, SuspendDays)) {
			s.Status, s.SuspensionReason = "Suspended", "Overdue on Payment"
			f.module = append(f.module, ModuleCall{s.ID, "SuspendAccount"})
			res.Suspended = append(res.Suspended, s.ID)
		}
	}
	f.save() // a state file that cannot be written fails the next API call, which says so
	return res
}

// renewalInvoice is s's unpaid invoice for its current due date, if the cron made one.
func (f *Fake) renewalInvoice(s *service) *invoice {
	for _, inv := range f.invoices {
		if inv.Status != "Unpaid" || inv.DueDate != s.NextDueDate {
			continue
		}
		for _, it := range inv.Items {
			if it.Type == "Hosting" && it.RelID == s.ID {
				return inv
			}
		}
	}
	return nil
}

func (f *Fake) nextItem() int {
	n := 1
	for _, inv := range f.invoices {
		n += len(inv.Items)
	}
	return n
}

// errBadSerialized is a configoptions/customfields value that is not base64 of a PHP array.
var errBadSerialized = errors.New("not a base64 PHP-serialised array")
