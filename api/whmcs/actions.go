package whmcs

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Currency is a WHMCS currency (GetCurrencies). The default currency is the one at rate 1.
type Currency struct {
	ID     Int     `json:"id"`
	Code   string  `json:"code"`
	Prefix string  `json:"prefix"`
	Suffix string  `json:"suffix"`
	Format Int     `json:"format"`
	Rate   Decimal `json:"rate"`
}

// flatCurrency reads the flattened form of the documentation's example:
// "currencies[currency][0][code]": "USD".
var flatCurrency = regexp.MustCompile(`^currencies\[currency\]\[(\d+)\]\[([a-z]+)\]$`)

// GetCurrencies lists the currencies, in the nested form client libraries read or the flattened
// one the documentation's example shows.
func (c *Client) GetCurrencies(ctx context.Context) ([]Currency, error) {
	var raw map[string]json.RawMessage
	if err := c.Call(ctx, "GetCurrencies", nil, &raw); err != nil {
		return nil, err
	}
	if nested, ok := raw["currencies"]; ok {
		var v List[Currency]
		if err := json.Unmarshal(nested, &v); err != nil {
			return nil, &Error{Action: "GetCurrencies", Kind: ErrUnavailable, Message: "answer not as documented: " + err.Error()}
		}
		return v, nil
	}
	byIndex := map[int]map[string]json.RawMessage{}
	for k, v := range raw {
		if m := flatCurrency.FindStringSubmatch(k); m != nil {
			i, _ := strconv.Atoi(m[1])
			if byIndex[i] == nil {
				byIndex[i] = map[string]json.RawMessage{}
			}
			byIndex[i][m[2]] = v
		}
	}
	idx := make([]int, 0, len(byIndex))
	for i := range byIndex {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	out := make([]Currency, 0, len(idx))
	for _, i := range idx {
		b, _ := json.Marshal(byIndex[i])
		var cur Currency
		if err := json.Unmarshal(b, &cur); err != nil {
			return nil, &Error{Action: "GetCurrencies", Kind: ErrUnavailable, Message: "answer not as documented: " + err.Error()}
		}
		out = append(out, cur)
	}
	return out, nil
}

// Cycles are WHMCS's recurring billing cycles, shortest first, with their setup-fee fields.
var Cycles = []struct{ Name, SetupFee string }{
	{"monthly", "msetupfee"}, {"quarterly", "qsetupfee"}, {"semiannually", "ssetupfee"},
	{"annually", "asetupfee"}, {"biennially", "bsetupfee"}, {"triennially", "tsetupfee"},
}

// Pricing is one currency's prices of a product or option: by cycle, and setup fees by cycle.
type Pricing struct {
	Prefix   string
	Suffix   string
	Cycles   map[string]Price   // monthly … triennially
	SetupFee map[string]Decimal // by cycle name (monthly …), from msetupfee …
}

// UnmarshalJSON implements json.Unmarshaler.
func (p *Pricing) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*p = Pricing{Cycles: map[string]Price{}, SetupFee: map[string]Decimal{}}
	json.Unmarshal(raw["prefix"], &p.Prefix)
	json.Unmarshal(raw["suffix"], &p.Suffix)
	for _, c := range Cycles {
		if v, ok := raw[c.Name]; ok {
			var pr Price
			if err := pr.UnmarshalJSON(v); err != nil {
				return err
			}
			p.Cycles[c.Name] = pr
		}
		if v, ok := raw[c.SetupFee]; ok {
			var d Decimal
			if err := d.UnmarshalJSON(v); err != nil {
				return err
			}
			p.SetupFee[c.Name] = d
		}
	}
	return nil
}

// CustomField is a product's custom field shown on the order form.
type CustomField struct {
	ID          Int    `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Required    Bool   `json:"required"`
}

// Config option types (GetProducts' configoption type).
const (
	OptionDropdown = 1
	OptionRadio    = 2
	OptionYesNo    = 3
	OptionQuantity = 4
)

// ConfigOption is a product's configurable option.
type ConfigOption struct {
	ID      Int                `json:"id"`
	Name    string             `json:"name"`
	Type    Int                `json:"type"`
	MinQty  Int                `json:"minqty"`
	MaxQty  Int                `json:"maxqty"`
	Options List[OptionChoice] `json:"options"`
}

// OptionChoice is one choice of a config option, priced per currency.
type OptionChoice struct {
	ID      Int                `json:"id"`
	Name    string             `json:"name"`
	Pricing map[string]Pricing `json:"pricing"`
}

// Product is a product (GetProducts).
type Product struct {
	PID           Int                `json:"pid"`
	GID           Int                `json:"gid"`
	Type          string             `json:"type"`
	Name          string             `json:"name"`
	Description   string             `json:"description"`
	Module        string             `json:"module"`
	PayType       string             `json:"paytype"` // free, onetime, recurring
	Pricing       map[string]Pricing `json:"-"`       // by currency code
	CustomFields  List[CustomField]  `json:"customfields"`
	ConfigOptions List[ConfigOption] `json:"configoptions"`
}

// UnmarshalJSON implements json.Unmarshaler: a free product's pricing may be [] or "".
func (p *Product) UnmarshalJSON(b []byte) error {
	type plain Product
	var v struct {
		plain
		Pricing json.RawMessage `json:"pricing"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*p = Product(v.plain)
	p.Pricing = map[string]Pricing{}
	if t := strings.TrimSpace(string(v.Pricing)); strings.HasPrefix(t, "{") {
		return json.Unmarshal(v.Pricing, &p.Pricing)
	}
	return nil
}

// ProductQuery selects products: a group, or pids (both zero: every product).
type ProductQuery struct {
	GID  int
	PIDs []int
}

// GetProducts lists products, in WHMCS's order.
func (c *Client) GetProducts(ctx context.Context, q ProductQuery) ([]Product, error) {
	p := url.Values{}
	if q.GID > 0 {
		p.Set("gid", strconv.Itoa(q.GID))
	}
	if len(q.PIDs) > 0 {
		p.Set("pid", joinInts(q.PIDs))
	}
	var v struct {
		Products List[Product] `json:"products"`
	}
	if err := c.Call(ctx, "GetProducts", p, &v); err != nil {
		return nil, err
	}
	return v.Products, nil
}

// Promotion is a promotion code with WHMCS's rules (GetPromotions).
type Promotion struct {
	ID             Int     `json:"id"`
	Code           string  `json:"code"`
	Type           string  `json:"type"` // Percentage, Fixed Amount, Price Override, Free Setup
	Value          Decimal `json:"value"`
	Recurring      Bool    `json:"recurring"`
	RecurFor       Int     `json:"recurfor"`
	Cycles         string  `json:"cycles"` // comma list; "" every cycle
	AppliesTo      IDs     `json:"appliesto"`
	Requires       IDs     `json:"requires"`
	StartDate      Date    `json:"startdate"`
	ExpirationDate Date    `json:"expirationdate"`
	MaxUses        Int     `json:"maxuses"`
	Uses           Int     `json:"uses"`
	OncePerClient  Bool    `json:"onceperclient"`
	NewSignups     Bool    `json:"newsignups"`
	ExistingClient Bool    `json:"existingclient"`
	ApplyOnce      Bool    `json:"applyonce"`
	LifetimePromo  Bool    `json:"lifetimepromo"`
}

// GetPromotions lists the promotions, or code's alone ("" every one).
func (c *Client) GetPromotions(ctx context.Context, code string) ([]Promotion, error) {
	p := url.Values{}
	if code != "" {
		p.Set("code", code)
	}
	var v struct {
		Promotions List[Promotion] `json:"promotions"`
	}
	if err := c.Call(ctx, "GetPromotions", p, &v); err != nil {
		return nil, err
	}
	return v.Promotions, nil
}

// PaymentMethod is an active payment gateway module.
type PaymentMethod struct {
	Module      string `json:"module"`
	DisplayName string `json:"displayname"`
}

// GetPaymentMethods lists the active payment gateway modules.
func (c *Client) GetPaymentMethods(ctx context.Context) ([]PaymentMethod, error) {
	var v struct {
		PaymentMethods List[PaymentMethod] `json:"paymentmethods"`
	}
	if err := c.Call(ctx, "GetPaymentMethods", nil, &v); err != nil {
		return nil, err
	}
	return v.PaymentMethods, nil
}

// Client is a client's record (GetClientsDetails).
type ClientDetails struct {
	ID           Int    `json:"id"`
	OwnerUserID  Int    `json:"owner_user_id"`
	Email        string `json:"email"`
	Country      string `json:"countrycode"`
	CurrencyID   Int    `json:"currency"`
	CurrencyCode string `json:"currency_code"`
	Status       string `json:"status"`
	Language     string `json:"language"`
}

// GetClientByEmail finds a client by e-mail address; ErrNotFound when there is none.
func (c *Client) GetClientByEmail(ctx context.Context, email string) (ClientDetails, error) {
	var v struct {
		Client ClientDetails `json:"client"`
	}
	err := c.Call(ctx, "GetClientsDetails", url.Values{"email": {email}}, &v)
	return v.Client, err
}

// NewClient is what AddClient takes from Streamcart: no address or phone (skipvalidation).
type NewClient struct {
	FirstName, LastName string
	Email               string
	Password            string // the buyer's, forwarded (password2), never stored
	Country             string // ISO 3166-1 alpha-2
	Language            string // WHMCS's name: english, spanish, german…
	CurrencyID          int
	ClientIP            string
	MarketingOptIn      bool
	NoEmail             bool
}

// AddClient makes a client and returns its id.
func (c *Client) AddClient(ctx context.Context, n NewClient) (int, error) {
	p := url.Values{"firstname": {n.FirstName}, "lastname": {n.LastName}, "email": {n.Email}, "country": {n.Country},
		"skipvalidation": {"true"}}
	set(p, "password2", n.Password)
	set(p, "language", n.Language)
	set(p, "clientip", n.ClientIP)
	if n.CurrencyID > 0 {
		p.Set("currency", strconv.Itoa(n.CurrencyID))
	}
	if n.MarketingOptIn {
		p.Set("marketingoptin", "true")
	}
	if n.NoEmail {
		p.Set("noemail", "true")
	}
	var v struct {
		ClientID Int `json:"clientid"`
	}
	err := c.Call(ctx, "AddClient", p, &v)
	return int(v.ClientID), err
}

// ValidateLogin checks a client user's password; ErrRefused ("Email or Password Invalid") when
// it does not match. TwoFactor is true when the user has two-factor authentication: not proven.
func (c *Client) ValidateLogin(ctx context.Context, email, password string) (userID int, twoFactor bool, err error) {
	var v struct {
		UserID    Int  `json:"userid"`
		TwoFactor Bool `json:"twoFactorEnabled"`
	}
	err = c.Call(ctx, "ValidateLogin", url.Values{"email": {email}, "password2": {password}}, &v)
	return int(v.UserID), bool(v.TwoFactor), err // passwordhash (a WHMCS session) is dropped
}

// OrderItem is one product of an order. ConfigOptions are option id → quantity (1 for a yes/no
// chosen); CustomFields field id → value.
type OrderItem struct {
	PID   int
	Cycle string // monthly … triennially, onetime, free
	// Domain is the service's domain field: free text on a product that needs no domain, where
	// Streamcart writes its reference of the order so GetClientsProducts(domain) finds it again.
	Domain        string
	ConfigOptions map[int]int
	CustomFields  map[int]string
}

// Order is what AddOrder takes. There is no price field: WHMCS prices the order itself, and
// Streamcart never sends priceoverride.
type Order struct {
	ClientID       int
	PaymentMethod  string // the WHMCS module
	Items          []OrderItem
	PromoCode      string
	AffiliateID    int
	ClientIP       string
	NoEmail        bool
	NoInvoiceEmail bool
}

// Placed is AddOrder's answer. InvoiceID is 0 when WHMCS made no invoice (a free order).
type Placed struct {
	OrderID    int
	ServiceIDs []int
	InvoiceID  int
}

// AddOrder places an order: pid[], billingcycle[], configoptions[] and customfields[] (each
// base64 of a PHP-serialised array), the promotion code, the payment module and the buyer's IP.
func (c *Client) AddOrder(ctx context.Context, o Order) (Placed, error) {
	p := url.Values{"clientid": {strconv.Itoa(o.ClientID)}, "paymentmethod": {o.PaymentMethod}}
	for i, it := range o.Items {
		k := func(name string) string { return fmt.Sprintf("%s[%d]", name, i) }
		p.Set(k("pid"), strconv.Itoa(it.PID))
		p.Set(k("billingcycle"), it.Cycle)
		if it.Domain != "" {
			p.Set(k("domain"), it.Domain)
		}
		if len(it.ConfigOptions) > 0 {
			p.Set(k("configoptions"), SerializeInts(it.ConfigOptions))
		}
		if len(it.CustomFields) > 0 {
			p.Set(k("customfields"), SerializeStrings(it.CustomFields))
		}
	}
	set(p, "promocode", o.PromoCode)
	set(p, "clientip", o.ClientIP)
	if o.AffiliateID > 0 {
		p.Set("affid", strconv.Itoa(o.AffiliateID))
	}
	if o.NoEmail {
		p.Set("noemail", "true")
	}
	if o.NoInvoiceEmail {
		p.Set("noinvoiceemail", "true")
	}
	var v struct {
		OrderID    Int `json:"orderid"`
		ServiceIDs IDs `json:"serviceids"`
		InvoiceID  Int `json:"invoiceid"`
	}
	err := c.Call(ctx, "AddOrder", p, &v)
	return Placed{OrderID: int(v.OrderID), ServiceIDs: v.ServiceIDs, InvoiceID: int(v.InvoiceID)}, err
}

// AcceptOrder accepts a pending order; autosetup runs the module's CreateAccount on its
// pending services (nil: the product's own setting decides).
func (c *Client) AcceptOrder(ctx context.Context, orderID int, autosetup *bool, sendEmail bool) error {
	p := url.Values{"orderid": {strconv.Itoa(orderID)}, "sendemail": {strconv.FormatBool(sendEmail)}}
	if autosetup != nil {
		p.Set("autosetup", strconv.FormatBool(*autosetup))
	}
	return c.Call(ctx, "AcceptOrder", p, nil)
}

// CancelOrder cancels a pending order (its invoice too).
func (c *Client) CancelOrder(ctx context.Context, orderID int) error {
	return c.Call(ctx, "CancelOrder", url.Values{"orderid": {strconv.Itoa(orderID)}, "noemail": {"true"}}, nil)
}

// InvoiceItem is one line of an invoice.
type InvoiceItem struct {
	ID          Int     `json:"id"`
	Type        string  `json:"type"`
	RelID       Int     `json:"relid"`
	Description string  `json:"description"`
	Amount      Decimal `json:"amount"`
}

// Transaction is a payment recorded on an invoice.
type Transaction struct {
	ID        Int     `json:"id"`
	InvoiceID Int     `json:"invoiceid"`
	ClientID  Int     `json:"userid"`
	TransID   string  `json:"transid"`
	Gateway   string  `json:"gateway"`
	Date      Date    `json:"date"`
	AmountIn  Decimal `json:"amountin"`
	AmountOut Decimal `json:"amountout"`
	Fees      Decimal `json:"fees"`
}

// Invoice is an invoice (GetInvoice). DatePaid is zero while unpaid.
type Invoice struct {
	ID            Int               `json:"invoiceid"`
	ClientID      Int               `json:"userid"`
	Status        string            `json:"status"` // Unpaid, Paid, Cancelled, Refunded, Collections, Draft
	Date          Date              `json:"date"`
	DueDate       Date              `json:"duedate"`
	DatePaid      Date              `json:"datepaid"`
	Subtotal      Decimal           `json:"subtotal"`
	Tax           Decimal           `json:"tax"`
	Tax2          Decimal           `json:"tax2"`
	Credit        Decimal           `json:"credit"`
	Total         Decimal           `json:"total"`
	Balance       Decimal           `json:"balance"`
	PaymentMethod string            `json:"paymentmethod"`
	Items         List[InvoiceItem] `json:"items"`
	Transactions  List[Transaction] `json:"transactions"`
}

// GetInvoice reads an invoice; ErrNotFound when there is none.
func (c *Client) GetInvoice(ctx context.Context, id int) (Invoice, error) {
	var v Invoice
	err := c.Call(ctx, "GetInvoice", url.Values{"invoiceid": {strconv.Itoa(id)}}, &v)
	return v, err
}

// InvoiceSummary is an invoice as GetInvoices lists it.
type InvoiceSummary struct {
	ID       Int     `json:"id"`
	ClientID Int     `json:"userid"`
	Status   string  `json:"status"`
	DueDate  Date    `json:"duedate"`
	Total    Decimal `json:"total"`
	Currency string  `json:"currencycode"`
}

// GetInvoices lists client clientID's invoices in status ("" any), at most 100.
func (c *Client) GetInvoices(ctx context.Context, clientID int, status string) ([]InvoiceSummary, error) {
	var v struct {
		Invoices List[InvoiceSummary] `json:"invoices"`
	}
	p := url.Values{"userid": {strconv.Itoa(clientID)}, "limitnum": {"100"}}
	set(p, "status", status)
	err := c.Call(ctx, "GetInvoices", p, &v)
	return v.Invoices, err
}

// Payment is what AddInvoicePayment records. Amount "" is the invoice's whole balance.
type Payment struct {
	InvoiceID int
	TransID   string // the provider's transaction id: GetTransactions finds it again
	Gateway   string // the WHMCS module
	Date      time.Time
	Amount    string
	Fees      string
	NoEmail   bool
}

// AddInvoicePayment records a payment. It is not idempotent: check GetTransactions first.
func (c *Client) AddInvoicePayment(ctx context.Context, pay Payment) error {
	p := url.Values{"invoiceid": {strconv.Itoa(pay.InvoiceID)}, "transid": {pay.TransID}, "gateway": {pay.Gateway},
		"date": {pay.Date.UTC().Format(time.DateTime)}}
	set(p, "amount", pay.Amount)
	set(p, "fees", pay.Fees)
	if pay.NoEmail {
		p.Set("noemail", "true")
	}
	return c.Call(ctx, "AddInvoicePayment", p, nil)
}

// GetTransactions finds the payments with transaction id transID (on any invoice).
func (c *Client) GetTransactions(ctx context.Context, transID string) ([]Transaction, error) {
	var v struct {
		Transactions List[Transaction] `json:"transactions"`
	}
	err := c.Call(ctx, "GetTransactions", url.Values{"transid": {transID}}, &v)
	return v.Transactions, err
}

// ServiceField is a service's custom field value.
type ServiceField struct {
	ID    Int    `json:"id"`
	Name  string `json:"name"`
	Value string `json:"value"`
}

// ServiceOption is a service's config option value.
type ServiceOption struct {
	ID     Int    `json:"id"`
	Option string `json:"option"`
	Type   string `json:"type"`
	Value  string `json:"value"`
}

// Service is a client's product (GetClientsProducts): a line once the module made it.
type Service struct {
	ID               Int                 `json:"id"`
	ClientID         Int                 `json:"clientid"`
	OrderID          Int                 `json:"orderid"`
	PID              Int                 `json:"pid"`
	Name             string              `json:"name"`
	Status           string              `json:"status"` // Pending, Active, Completed, Suspended, Terminated, Cancelled, Fraud
	RegDate          Date                `json:"regdate"`
	NextDueDate      Date                `json:"nextduedate"`
	BillingCycle     string              `json:"billingcycle"` // Monthly, Semi-Annually, One Time, Free Account
	RecurringAmount  Decimal             `json:"recurringamount"`
	PaymentMethod    string              `json:"paymentmethod"`
	Domain           string              `json:"domain"`
	Username         string              `json:"username"`
	Password         string              `json:"password"`
	ServerHostname   string              `json:"serverhostname"`
	SuspensionReason string              `json:"suspensionreason"`
	CustomFields     List[ServiceField]  `json:"customfields"`
	ConfigOptions    List[ServiceOption] `json:"configoptions"`
}

// GetClientService reads service serviceID of client clientID (both given: a service of another
// client is ErrNotFound).
func (c *Client) GetClientService(ctx context.Context, clientID, serviceID int) (Service, error) {
	var v struct {
		Products List[Service] `json:"products"`
	}
	p := url.Values{"clientid": {strconv.Itoa(clientID)}, "serviceid": {strconv.Itoa(serviceID)}}
	if err := c.Call(ctx, "GetClientsProducts", p, &v); err != nil {
		return Service{}, err
	}
	for _, s := range v.Products {
		if int(s.ID) == serviceID && int(s.ClientID) == clientID {
			return s, nil
		}
	}
	return Service{}, &Error{Action: "GetClientsProducts", Kind: ErrNotFound, Message: "no such service for this client"}
}

// GetClientServices lists client clientID's services whose domain field is domain (all of
// them when ""), at most 100.
func (c *Client) GetClientServices(ctx context.Context, clientID int, domain string) ([]Service, error) {
	var v struct {
		Products List[Service] `json:"products"`
	}
	p := url.Values{"clientid": {strconv.Itoa(clientID)}, "limitnum": {"100"}}
	set(p, "domain", domain)
	if err := c.Call(ctx, "GetClientsProducts", p, &v); err != nil {
		return nil, err
	}
	out := v.Products[:0]
	for _, s := range v.Products {
		if int(s.ClientID) == clientID && (domain == "" || s.Domain == domain) {
			out = append(out, s)
		}
	}
	return out, nil
}

// OrderLine is one item of an order (GetOrders lineitems): RelID is the service's id for a
// product.
type OrderLine struct {
	Type   string `json:"type"`
	RelID  Int    `json:"relid"`
	Status string `json:"status"`
}

// OrderRecord is an order as GetOrders lists it.
type OrderRecord struct {
	ID        Int             `json:"id"`
	ClientID  Int             `json:"userid"`
	Status    string          `json:"status"` // Pending, Active, Cancelled, Fraud
	InvoiceID Int             `json:"invoiceid"`
	Amount    Decimal         `json:"amount"`
	Lines     List[OrderLine] `json:"lineitems"`
}

// GetOrder reads order id; ErrNotFound when there is none.
func (c *Client) GetOrder(ctx context.Context, id int) (OrderRecord, error) {
	var v struct {
		Orders List[OrderRecord] `json:"orders"`
	}
	if err := c.Call(ctx, "GetOrders", url.Values{"id": {strconv.Itoa(id)}}, &v); err != nil {
		return OrderRecord{}, err
	}
	for _, o := range v.Orders {
		if int(o.ID) == id {
			return o, nil
		}
	}
	return OrderRecord{}, &Error{Action: "GetOrders", Kind: ErrNotFound, Message: "Order ID Not Found"}
}

// GetOrders lists client clientID's orders in status ("" any), at most 100, newest last.
func (c *Client) GetOrders(ctx context.Context, clientID int, status string) ([]OrderRecord, error) {
	var v struct {
		Orders List[OrderRecord] `json:"orders"`
	}
	p := url.Values{"userid": {strconv.Itoa(clientID)}, "limitnum": {"100"}}
	set(p, "status", status)
	if err := c.Call(ctx, "GetOrders", p, &v); err != nil {
		return nil, err
	}
	out := v.Orders[:0]
	for _, o := range v.Orders {
		if int(o.ClientID) == clientID && (status == "" || o.Status == status) {
			out = append(out, o)
		}
	}
	return out, nil
}

// SetServiceStatus sets a service's status without running the module (UpdateClientProduct
// status): a service that never had a line (Pending) is Cancelled so.
func (c *Client) SetServiceStatus(ctx context.Context, serviceID int, status string) error {
	return c.Call(ctx, "UpdateClientProduct", url.Values{"serviceid": {strconv.Itoa(serviceID)}, "status": {status}}, nil)
}

// SetNextDueDate sets a service's next due date (UpdateClientProduct nextduedate, an absolute
// value: safe to send again). It runs no module function: the panel line keeps its expiry, and
// WHMCS's cron invoices and suspends by the date.
func (c *Client) SetNextDueDate(ctx context.Context, serviceID int, date time.Time) error {
	return c.Call(ctx, "UpdateClientProduct", url.Values{"serviceid": {strconv.Itoa(serviceID)},
		"nextduedate": {date.Format(time.DateOnly)}}, nil)
}

// Refund is money given back on an invoice, recorded as a transaction paying out (AddTransaction
// amountout), the way WHMCS records its own refunds.
type Refund struct {
	ClientID    int
	InvoiceID   int
	Gateway     string // the WHMCS module the payment came through
	TransID     string // ours, unique: GetTransactions finds it again
	Amount      string // decimal, the invoice's currency
	Description string
}

// AddRefund records r (AddTransaction; WHMCS refuses a transid it holds already). Not
// idempotent by itself: check GetTransactions first.
func (c *Client) AddRefund(ctx context.Context, r Refund) error {
	p := url.Values{"paymentmethod": {r.Gateway}, "userid": {strconv.Itoa(r.ClientID)}, "invoiceid": {strconv.Itoa(r.InvoiceID)},
		"transid": {r.TransID}, "amountout": {r.Amount}, "amountin": {"0"}}
	set(p, "description", r.Description)
	return c.Call(ctx, "AddTransaction", p, nil)
}

// SetServiceFields sets custom field values of a service (UpdateClientProduct customfields:
// base64 of a PHP-serialised field id → value array).
func (c *Client) SetServiceFields(ctx context.Context, serviceID int, fields map[int]string) error {
	return c.Call(ctx, "UpdateClientProduct", url.Values{"serviceid": {strconv.Itoa(serviceID)},
		"customfields": {SerializeStrings(fields)}}, nil)
}

// SetServiceOptions sets quantity config options of a service (UpdateClientProduct
// configoptions, an absolute value: safe to send again) and has WHMCS recalculate its recurring
// amount from them (autorecalc), so the next renewal invoice follows. It does not run the
// module: ModuleChangePackage pushes the change to the line.
func (c *Client) SetServiceOptions(ctx context.Context, serviceID int, options map[int]OptionQty) error {
	return c.Call(ctx, "UpdateClientProduct", url.Values{"serviceid": {strconv.Itoa(serviceID)},
		"configoptions": {SerializeOptionQtys(options)}, "autorecalc": {"true"}}, nil)
}

// ModuleCustom runs one of the service's module's own functions (a line restart).
func (c *Client) ModuleCustom(ctx context.Context, serviceID int, function string) error {
	return c.Call(ctx, "ModuleCustom", url.Values{"serviceid": {strconv.Itoa(serviceID)}, "func_name": {function}}, nil)
}

// Upgrade is UpgradeProduct's answer: Price is WHMCS's formatted amount ("$8.67 USD"; prorated
// over the days left of the period); OrderID and InvoiceID are 0 for a calculation only, and
// InvoiceID is 0 when there is nothing to pay.
type Upgrade struct {
	Price     string
	OrderID   int
	InvoiceID int
}

// UpgradeOptions upgrades a service's config options (option id → new quantity) through
// UpgradeProduct type=configoptions: calcOnly prices it without ordering; otherwise WHMCS makes
// an upgrade order and its invoice, and runs the module's ChangePackage once it is paid.
func (c *Client) UpgradeOptions(ctx context.Context, serviceID int, options map[int]int, paymentMethod string, calcOnly bool) (Upgrade, error) {
	p := url.Values{"serviceid": {strconv.Itoa(serviceID)}, "type": {"configoptions"}, "paymentmethod": {paymentMethod}}
	for id, q := range options {
		p.Set(fmt.Sprintf("configoptions[%d]", id), strconv.Itoa(q))
	}
	if calcOnly {
		p.Set("calconly", "true")
	}
	var v struct {
		Price     string `json:"price"`
		OrderID   Int    `json:"orderid"`
		InvoiceID Int    `json:"invoiceid"`
	}
	err := c.Call(ctx, "UpgradeProduct", p, &v)
	return Upgrade{Price: v.Price, OrderID: int(v.OrderID), InvoiceID: int(v.InvoiceID)}, err
}

// Module runs a module command (ModuleCreate, ModuleSuspend, ModuleUnsuspend, ModuleTerminate,
// ModuleChangePackage) on a service.
func (c *Client) Module(ctx context.Context, action string, serviceID int) error {
	if !strings.HasPrefix(action, "Module") || action == "ModuleCustom" {
		return fmt.Errorf("whmcs: %s is not a module command", action)
	}
	return c.Call(ctx, action, url.Values{"serviceid": {strconv.Itoa(serviceID)}}, nil)
}

// ModuleSuspend suspends a service through its module (SuspendAccount), with the reason WHMCS
// shows on it (its suspendreason).
func (c *Client) ModuleSuspend(ctx context.Context, serviceID int, reason string) error {
	p := url.Values{"serviceid": {strconv.Itoa(serviceID)}}
	set(p, "suspendreason", reason)
	return c.Call(ctx, "ModuleSuspend", p, nil)
}

func set(p url.Values, k, v string) {
	if v != "" {
		p.Set(k, v)
	}
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}
