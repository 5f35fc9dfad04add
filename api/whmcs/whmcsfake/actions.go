package whmcsfake

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// actions are the API actions the fake answers, each called with the fake's lock held.
var actions = map[string]func(f *Fake, p url.Values) map[string]any{
	"GetCurrencies":       (*Fake).getCurrencies,
	"GetProducts":         (*Fake).getProducts,
	"GetPromotions":       (*Fake).getPromotions,
	"GetPaymentMethods":   (*Fake).getPaymentMethods,
	"GetClientsDetails":   (*Fake).getClientsDetails,
	"GetUsers":            (*Fake).getUsers,
	"AddClient":           (*Fake).addClientAction,
	"UpdateClient":        (*Fake).updateClient,
	"ValidateLogin":       (*Fake).validateLogin,
	"ResetPassword":       (*Fake).resetPassword,
	"AddOrder":            (*Fake).addOrder,
	"AcceptOrder":         (*Fake).acceptOrder,
	"CancelOrder":         (*Fake).cancelOrder,
	"FraudOrder":          (*Fake).fraudOrder,
	"OrderFraudCheck":     (*Fake).orderFraudCheck,
	"GetOrders":           (*Fake).getOrders,
	"GetInvoice":          (*Fake).getInvoice,
	"GetInvoices":         (*Fake).getInvoices,
	"AddInvoicePayment":   (*Fake).addInvoicePayment,
	"GetTransactions":     (*Fake).getTransactions,
	"AddTransaction":      (*Fake).addTransaction,
	"GetClientsProducts":  (*Fake).getClientsProducts,
	"UpdateClientProduct": (*Fake).updateClientProduct,
	"UpgradeProduct":      (*Fake).upgradeProduct,
	"ModuleCreate":        (*Fake).moduleCreateAction,
	"ModuleSuspend":       (*Fake).moduleSuspend,
	"ModuleUnsuspend":     (*Fake).moduleUnsuspend,
	"ModuleTerminate":     (*Fake).moduleTerminate,
	"ModuleChangePackage": (*Fake).moduleChangePackage,
	"ModuleCustom":        (*Fake).moduleCustom,
	"CreateSsoToken":      (*Fake).createSsoToken,
}

// Actions lists the actions the fake answers, sorted.
func Actions() []string {
	out := make([]string, 0, len(actions))
	for a := range actions {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

func atoi(s string) int { n, _ := strconv.Atoi(strings.TrimSpace(s)); return n }

func truthy(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// list reads a PHP-style array parameter: name[]=a&name[]=b, name[0]=a&name[1]=b, or name=a.
func list(p url.Values, name string) []string {
	if v, ok := p[name+"[]"]; ok {
		return v
	}
	var out []string
	for i := 0; ; i++ {
		v, ok := p[fmt.Sprintf("%s[%d]", name, i)]
		if !ok {
			break
		}
		out = append(out, v[0])
	}
	if len(out) == 0 && p.Get(name) != "" {
		out = strings.Split(p.Get(name), ",")
	}
	return out
}

// keyed reads name[K]=V parameters (UpgradeProduct's configoptions[2]=3).
var keyedRe = regexp.MustCompile(`^([a-z]+)\[(\d+)\]$`)

func keyed(p url.Values, name string) map[int]string {
	out := map[int]string{}
	for k, v := range p {
		if m := keyedRe.FindStringSubmatch(k); m != nil && m[1] == name {
			out[atoi(m[2])] = v[0]
		}
	}
	return out
}

// --- catalog ---

func (f *Fake) getCurrencies(url.Values) map[string]any {
	if f.flatCurr {
		m := success("totalresults", strconv.Itoa(len(f.seed.Currencies)))
		for i, c := range f.seed.Currencies {
			k := fmt.Sprintf("currencies[currency][%d]", i)
			m[k+"[id]"], m[k+"[code]"], m[k+"[prefix]"] = strconv.Itoa(c.ID), c.Code, c.Prefix
			m[k+"[suffix]"], m[k+"[format]"], m[k+"[rate]"] = c.Suffix, strconv.Itoa(c.Format), c.Rate
		}
		return m
	}
	var list []map[string]any
	for _, c := range f.seed.Currencies {
		list = append(list, map[string]any{"id": strconv.Itoa(c.ID), "code": c.Code, "prefix": c.Prefix,
			"suffix": c.Suffix, "format": strconv.Itoa(c.Format), "rate": c.Rate})
	}
	return success("totalresults", len(list), "currencies", map[string]any{"currency": list})
}

func (f *Fake) pricingOf(ps Pricing, product bool) map[string]any {
	out := map[string]any{}
	for _, c := range f.seed.Currencies {
		m := map[string]any{}
		if product {
			m["prefix"], m["suffix"] = c.Prefix, c.Suffix
		}
		for _, k := range priceFields {
			v, ok := ps[c.Code][k]
			switch {
			case ok:
				a, _ := parseAmount(v)
				m[k] = formatAmount(a)
			case product && !strings.HasSuffix(k, "setupfee"):
				m[k] = "-1.00" // not sold on that cycle
			default:
				m[k] = "0.00"
			}
		}
		out[c.Code] = m
	}
	return out
}

func (f *Fake) productAnswer(p Product) map[string]any {
	fields := []map[string]any{}
	for _, cf := range p.CustomFields {
		if cf.AdminOnly {
			continue // GetProducts returns the fields shown on the order form only
		}
		req := ""
		if cf.Required {
			req = "on"
		}
		fields = append(fields, map[string]any{"id": cf.ID, "name": cf.Name, "description": cf.Description, "required": req})
	}
	opts := []map[string]any{}
	for _, id := range p.ConfigOptions {
		o, _ := f.option(id)
		var subs []map[string]any
		for _, so := range o.Options {
			subs = append(subs, map[string]any{"id": so.ID, "name": so.Name, "rawName": so.Name, "recurring": 0,
				"required": nil, "pricing": f.pricingOf(so.Pricing, false)})
		}
		opts = append(opts, map[string]any{"id": o.ID, "name": o.Name, "type": strconv.Itoa(o.Type),
			"minqty": o.MinQty, "maxqty": o.MaxQty, "options": map[string]any{"option": subs}})
	}
	pricing := map[string]any{}
	if p.PayType != "free" {
		pricing = f.pricingOf(p.Pricing, true)
	}
	return map[string]any{"pid": p.PID, "gid": p.GID, "type": p.Type, "name": p.Name,
		"slug": strings.ToLower(strings.ReplaceAll(p.Name, " ", "-")), "description": p.Description,
		"module": p.Module, "paytype": p.PayType, "allowqty": 0, "quantity_available": 0,
		"pricing": pricing, "customfields": map[string]any{"customfield": fields},
		"configoptions": map[string]any{"configoption": opts}}
}

func (f *Fake) getProducts(p url.Values) map[string]any {
	pids := splitInts(p.Get("pid"))
	gid, module := p.Get("gid"), p.Get("module")
	var out []map[string]any
	for _, pr := range f.seed.Products {
		if (len(pids) > 0 && !slices.Contains(pids, pr.PID)) || (gid != "" && atoi(gid) != pr.GID) || (module != "" && module != pr.Module) {
			continue
		}
		out = append(out, f.productAnswer(pr))
	}
	if out == nil {
		out = []map[string]any{}
	}
	return success("totalresults", len(out), "products", map[string]any{"product": out})
}

// bit is WHMCS's 0/1 integer for a flag.
func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

func orNoDate(d string) string {
	if d == "" {
		return noDate
	}
	return d
}

func (f *Fake) getPromotions(p url.Values) map[string]any {
	code := p.Get("code")
	out := []map[string]any{}
	for _, pr := range f.promotions {
		if code != "" && !strings.EqualFold(code, pr.Code) {
			continue
		}
		v, _ := parseAmount(pr.Value)
		cycles := pr.Cycles
		out = append(out, map[string]any{"id": pr.ID, "code": pr.Code, "type": pr.Type,
			"recurring": bit(pr.Recurring), "value": jsonNumber(formatAmount(v)), "cycles": cycles,
			"appliesto": pr.AppliesTo, "requires": pr.Requires, "requiresexisting": 0,
			"startdate": orNoDate(pr.StartDate), "expirationdate": orNoDate(pr.ExpirationDate),
			"maxuses": pr.MaxUses, "uses": pr.Uses, "lifetimepromo": bit(pr.LifetimePromo),
			"applyonce": bit(pr.ApplyOnce), "newsignups": bit(pr.NewSignups), "existingclient": bit(pr.ExistingClient),
			"onceperclient": bit(pr.OncePerClient), "recurfor": pr.RecurFor, "upgrades": 0,
			"upgradeconfig": "", "notes": pr.Notes})
	}
	return success("totalresults", len(out), "promotions", map[string]any{"promotion": out})
}

func (f *Fake) getPaymentMethods(url.Values) map[string]any {
	var out []map[string]any
	for _, m := range f.seed.PaymentMethods {
		out = append(out, map[string]any{"module": m.Module, "displayname": m.DisplayName})
	}
	return success("totalresults", len(out), "paymentmethods", map[string]any{"paymentmethod": out})
}

// --- clients ---

func (f *Fake) clientAnswer(c *client) map[string]any {
	cur := f.currencyByID(c.CurrencyID)
	return map[string]any{"client_id": c.ID, "owner_user_id": c.UserID, "userid": c.ID, "id": c.ID,
		"uuid": fmt.Sprintf("00000000-0000-4000-8000-%012d", c.ID), "firstname": c.FirstName, "lastname": c.LastName,
		"fullname": strings.TrimSpace(c.FirstName + " " + c.LastName), "email": c.Email,
		"countrycode": c.Country, "country": c.Country, "currency": c.CurrencyID, "currency_code": cur.Code,
		"status": c.Status, "language": c.Language, "groupid": 0, "isOptedInToMarketingEmails": c.MarketingOptIn,
		"users": map[string]any{"user": []map[string]any{{"id": c.UserID, "name": strings.TrimSpace(c.FirstName + " " + c.LastName),
			"email": c.Email, "is_owner": true}}}}
}

func (f *Fake) getClientsDetails(p url.Values) map[string]any {
	var c *client
	if id := p.Get("clientid"); id != "" {
		c = f.clientByID(atoi(id))
	} else if e := p.Get("email"); e != "" {
		c = f.clientByEmail(e)
	}
	if c == nil {
		return errorAnswer("Client Not Found")
	}
	a := f.clientAnswer(c)
	return success("client", a, "userid", c.ID, "id", c.ID, "email", c.Email, "currency_code", a["currency_code"])
}

func (f *Fake) getUsers(p url.Values) map[string]any {
	q := strings.ToLower(p.Get("search"))
	users := []map[string]any{}
	for _, c := range f.clients {
		if q != "" && !strings.Contains(strings.ToLower(c.Email), q) {
			continue
		}
		users = append(users, map[string]any{"id": c.UserID, "firstname": c.FirstName, "lastname": c.LastName,
			"email": c.Email, "clients": []map[string]any{{"id": c.ID, "isOwner": true}}})
	}
	return success("totalresults", len(users), "startnumber", 0, "numreturned", len(users), "users", users)
}

func (f *Fake) addClientAction(p url.Values) map[string]any {
	email := strings.TrimSpace(p.Get("email"))
	if email == "" {
		return errorAnswer("You did not enter an email address")
	}
	if !truthy(p.Get("skipvalidation")) {
		for _, k := range []string{"firstname", "lastname", "address1", "city", "state", "postcode", "country", "phonenumber"} {
			if strings.TrimSpace(p.Get(k)) == "" {
				return errorAnswer("You did not provide required field " + k)
			}
		}
	}
	if f.clientByEmail(email) != nil {
		return errorAnswer("A user already exists with that email address")
	}
	if p.Get("password2") == "" && p.Get("owner_user_id") == "" {
		return errorAnswer("A password is required when creating a new user")
	}
	cur := f.currency("")
	if id := p.Get("currency"); id != "" {
		cur = f.currencyByID(atoi(id))
	}
	c := f.addClient(p.Get("firstname"), p.Get("lastname"), email, p.Get("password2"), strings.ToUpper(p.Get("country")), cur.ID, p.Get("clientip"))
	c.Language, c.MarketingOptIn = p.Get("language"), truthy(p.Get("marketingoptin"))
	return success("clientid", strconv.Itoa(c.ID), "owner_id", c.UserID)
}

func (f *Fake) updateClient(p url.Values) map[string]any {
	c := f.clientByID(atoi(p.Get("clientid")))
	if c == nil {
		return errorAnswer("Client ID Not Found")
	}
	if v := p.Get("marketingoptin"); v != "" {
		c.MarketingOptIn = truthy(v)
	}
	if v := p.Get("language"); v != "" {
		c.Language = v
	}
	if v := p.Get("currency"); v != "" {
		c.CurrencyID = atoi(v)
	}
	return success("clientid", strconv.Itoa(c.ID))
}

func (f *Fake) validateLogin(p url.Values) map[string]any {
	c := f.clientByEmail(p.Get("email"))
	if c == nil || c.Password == "" || c.Password != p.Get("password2") {
		return errorAnswer("Email or Password Invalid")
	}
	return success("userid", strconv.Itoa(c.UserID), "passwordhash", randomHex(16), "twoFactorEnabled", "false")
}

func (f *Fake) resetPassword(p url.Values) map[string]any {
	var c *client
	if id := p.Get("id"); id != "" {
		c = f.clientByID(atoi(id))
	} else {
		c = f.clientByEmail(p.Get("email"))
	}
	if c == nil {
		return errorAnswer("User Not Found")
	}
	return success("email", c.Email)
}

// --- orders ---

func (f *Fake) addOrder(p url.Values) map[string]any {
	c := f.clientByID(atoi(p.Get("clientid")))
	if c == nil {
		return errorAnswer("Client ID Not Found")
	}
	method := p.Get("paymentmethod")
	var modules []string
	for _, m := range f.seed.PaymentMethods {
		modules = append(modules, m.Module)
	}
	if !slices.Contains(modules, method) {
		return errorAnswer("Invalid Payment Method. Valid options include " + strings.Join(modules, ","))
	}
	pids := list(p, "pid")
	if len(pids) == 0 {
		return errorAnswer("No items added to cart so order cannot proceed")
	}
	cyclesIn, optsIn, fieldsIn, overrides := list(p, "billingcycle"), list(p, "configoptions"), list(p, "customfields"), list(p, "priceoverride")
	domains := list(p, "domain")
	cur := f.currencyByID(c.CurrencyID).Code
	o := &order{ID: len(f.orders) + 1, ClientID: c.ID, Date: f.stamp(), PaymentMethod: method, Status: "Pending",
		IP: p.Get("clientip"), AffID: p.Get("affid"), PriceOverride: len(overrides) > 0}
	o.OrderNum = fmt.Sprintf("%010d", 7000000000+o.ID)
	inv := &invoice{ID: len(f.invoices) + 1, ClientID: c.ID, Date: f.today(), DueDate: f.today(),
		DatePaid: noDate + " 00:00:00", Status: "Unpaid", PaymentMethod: method, Currency: cur}
	var services []*service
	var usedPromo *Promotion
	itemID := f.nextItem()
	for i, ps := range pids {
		prod, ok := f.product(atoi(ps))
		if !ok {
			return errorAnswer("Product ID Not Found")
		}
		cycle := ""
		if i < len(cyclesIn) {
			cycle = strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(cyclesIn[i], "-", ""), " ", ""))
		}
		switch {
		case prod.PayType == "free":
			cycle = "free"
		case prod.PayType == "onetime":
			cycle = "onetime"
		case cycle == "":
			return errorAnswer("Invalid Billing Cycle")
		}
		price, setup, ok := f.productPrice(prod, cycle, cur)
		if !ok {
			return errorAnswer("Invalid Billing Cycle")
		}
		opts := map[int]int{}
		if i < len(optsIn) && optsIn[i] != "" {
			m, err := unserialize(optsIn[i])
			if err != nil {
				return errorAnswer("Invalid configoptions: " + err.Error())
			}
			for id, v := range m {
				o, known := f.option(id)
				if !known || !slices.Contains(prod.ConfigOptions, id) {
					return errorAnswer(fmt.Sprintf("Invalid Configurable Option ID %d for product %d", id, prod.PID))
				}
				q := atoi(v)
				if o.Type == OptionQuantity && (q < o.MinQty || q > o.MaxQty) {
					return errorAnswer(fmt.Sprintf("Invalid quantity %d for configurable option %d (%d to %d)", q, id, o.MinQty, o.MaxQty))
				}
				opts[id] = q
			}
		}
		fields := map[int]string{}
		if i < len(fieldsIn) && fieldsIn[i] != "" {
			m, err := unserialize(fieldsIn[i])
			if err != nil {
				return errorAnswer("Invalid customfields: " + err.Error())
			}
			for id, v := range m {
				if !slices.ContainsFunc(prod.CustomFields, func(cf CustomField) bool { return cf.ID == id }) {
					return errorAnswer(fmt.Sprintf("Invalid Custom Field ID %d for product %d", id, prod.PID))
				}
				fields[id] = v
			}
		}
		for _, cf := range prod.CustomFields {
			if cf.Required && strings.TrimSpace(fields[cf.ID]) == "" {
				return errorAnswer(cf.Name + " is required")
			}
		}
		amount := price
		for id, q := range opts {
			opt, _ := f.option(id)
			amount += f.optionPrice(prod, opt, q, cycle, cur)
		}
		if i < len(overrides) && overrides[i] != "" {
			if v, err := parseAmount(overrides[i]); err == nil {
				amount = v
			}
		}
		recurring := amount
		domain := ""
		if i < len(domains) {
			domain = domains[i]
		}
		s := &service{Domain: domain, ID: len(f.services) + len(services) + 1, ClientID: c.ID, OrderID: o.ID, PID: prod.PID,
			RegDate: f.today(), Cycle: cycle, NextDueDate: f.today(), Status: "Pending", PaymentMethod: method,
			FirstPayment: amount + setup, CustomFields: fields, ConfigOptions: opts}
		if cycleMonths(cycle) == 0 {
			s.NextDueDate = noDate
		}
		inv.Items = append(inv.Items, item{ID: itemID, Type: "Hosting", RelID: s.ID, Amount: amount + setup,
			Description: fmt.Sprintf("%s - %s (%s)", prod.Name, cycleDisplay(cycle), f.today())})
		itemID++
		if promo := f.promotionFor(p.Get("promocode"), prod.PID, cycle); promo != nil && amount > 0 {
			off := discount(promo, amount)
			inv.Items = append(inv.Items, item{ID: itemID, Type: "PromoHosting", RelID: s.ID, Amount: -off,
				Description: fmt.Sprintf("Promotional Code: %s - %s %s", promo.Code, promo.Value, promo.Type)})
			itemID++
			s.FirstPayment -= off
			if promo.Recurring {
				recurring -= off
			}
			usedPromo = promo
		}
		s.Recurring = recurring
		if cycleMonths(cycle) == 0 {
			s.Recurring = 0
		}
		services = append(services, s)
	}
	if usedPromo != nil {
		usedPromo.Uses++
		o.PromoCode = usedPromo.Code
	}
	for _, it := range inv.Items {
		inv.Total += it.Amount
	}
	o.Amount = inv.Total
	invoiceID := "0"
	// A free order, or one asked without an invoice, makes none.
	if inv.Total > 0 && !truthy(p.Get("noinvoice")) {
		f.invoices = append(f.invoices, inv)
		o.InvoiceID = inv.ID
		invoiceID = strconv.Itoa(inv.ID)
	}
	f.services = append(f.services, services...)
	for _, s := range services {
		o.ServiceIDs = append(o.ServiceIDs, s.ID)
	}
	f.orders = append(f.orders, o)
	return success("orderid", strconv.Itoa(o.ID), "serviceids", joinInts(o.ServiceIDs), "addonids", "",
		"domainids", "", "invoiceid", invoiceID)
}

const notPending = "Order ID not found or Status not Pending"

func (f *Fake) acceptOrder(p url.Values) map[string]any {
	o := f.orderByID(atoi(p.Get("orderid")))
	if o == nil || o.Status != "Pending" {
		return errorAnswer(notPending)
	}
	o.Status = "Active"
	for _, id := range o.ServiceIDs {
		s := f.serviceByID(id)
		if s == nil || s.Status != "Pending" {
			continue
		}
		if u := p.Get("serviceusername"); u != "" {
			s.Username = u
		}
		if pw := p.Get("servicepassword"); pw != "" {
			s.Password = pw
		}
		prod, _ := f.product(s.PID)
		setup := prod.Autosetup == SetupOnAccept
		if v := p.Get("autosetup"); v != "" {
			setup = truthy(v) // overrides the product's setting
		}
		if setup {
			f.moduleCreate(s)
		} else {
			s.Status = "Active" // accepted: Active in WHMCS, though no module ran
		}
	}
	return success()
}

func (f *Fake) closeOrder(o *order, status string) {
	o.Status = status
	for _, id := range o.ServiceIDs {
		if s := f.serviceByID(id); s != nil {
			s.Status = status
		}
	}
	if inv := f.invoiceByID(o.InvoiceID); inv != nil && inv.Status == "Unpaid" {
		inv.Status = "Cancelled"
	}
}

func (f *Fake) cancelOrder(p url.Values) map[string]any {
	o := f.orderByID(atoi(p.Get("orderid")))
	if o == nil || o.Status != "Pending" {
		return errorAnswer(notPending)
	}
	f.closeOrder(o, "Cancelled")
	return success()
}

func (f *Fake) fraudOrder(p url.Values) map[string]any {
	o := f.orderByID(atoi(p.Get("orderid")))
	if o == nil {
		return errorAnswer("Order ID Not Found")
	}
	f.closeOrder(o, "Fraud")
	return success()
}

func (f *Fake) orderFraudCheck(p url.Values) map[string]any {
	if f.orderByID(atoi(p.Get("orderid"))) == nil {
		return errorAnswer("Order ID Not Found")
	}
	return success("module", "fake", "status", "Pass", "results", "")
}

func (f *Fake) orderAnswer(o *order) map[string]any {
	var items []map[string]any
	for _, id := range o.ServiceIDs {
		s := f.serviceByID(id)
		items = append(items, map[string]any{"type": "product", "relid": s.ID, "producttype": "Other",
			"product": f.productName(s.PID), "billingcycle": cycleDisplay(s.Cycle), "amount": formatAmount(s.FirstPayment), "status": s.Status})
	}
	if o.UpgradeID != 0 {
		// An upgrade order's line names the service it upgrades (tblupgrades.relid) (**?** the
		// research did not see a real answer's upgrade lines).
		for _, u := range f.upgrades {
			if u.ID == o.UpgradeID {
				items = append(items, map[string]any{"type": "upgrade", "relid": u.ServiceID, "producttype": "Other",
					"product": f.productName(f.serviceByID(u.ServiceID).PID), "amount": formatAmount(o.Amount), "status": o.Status})
			}
		}
	}
	pay := "Unpaid"
	if inv := f.invoiceByID(o.InvoiceID); inv != nil && inv.Status == "Paid" {
		pay = "Paid"
	}
	return map[string]any{"id": o.ID, "ordernum": atoi(o.OrderNum), "userid": o.ClientID, "date": o.Date,
		"promocode": o.PromoCode, "amount": formatAmount(o.Amount), "paymentmethod": o.PaymentMethod,
		"invoiceid": o.InvoiceID, "status": o.Status, "ipaddress": o.IP, "fraudmodule": "", "fraudoutput": "",
		"paymentstatus": pay, "lineitems": map[string]any{"lineitem": items}}
}

func (f *Fake) productName(pid int) string {
	p, _ := f.product(pid)
	return p.Name
}

func page(p url.Values, n int) (start, end int) {
	start = min(max(atoi(p.Get("limitstart")), 0), n)
	num := atoi(p.Get("limitnum"))
	if num <= 0 {
		num = 25
	}
	return start, min(start+num, n)
}

func (f *Fake) getOrders(p url.Values) map[string]any {
	var sel []*order
	for _, o := range f.orders {
		if (p.Get("id") != "" && atoi(p.Get("id")) != o.ID) || (p.Get("userid") != "" && atoi(p.Get("userid")) != o.ClientID) ||
			(p.Get("status") != "" && p.Get("status") != o.Status) {
			continue
		}
		sel = append(sel, o)
	}
	start, end := page(p, len(sel))
	out := []map[string]any{}
	for _, o := range sel[start:end] {
		out = append(out, f.orderAnswer(o))
	}
	return success("totalresults", len(sel), "startnumber", start, "numreturned", len(out), "orders", map[string]any{"order": out})
}

// --- billing ---

func (f *Fake) transactionAnswer(t *transaction) map[string]any {
	return map[string]any{"id": strconv.Itoa(t.ID), "userid": strconv.Itoa(t.ClientID), "currency": "0",
		"gateway": t.Gateway, "date": t.Date, "description": t.Description, "amountin": formatAmount(t.AmountIn),
		"fees": formatAmount(t.Fees), "amountout": formatAmount(t.AmountOut), "rate": "1.00000", "transid": t.TransID,
		"invoiceid": strconv.Itoa(t.InvoiceID), "refundid": "0"}
}

// transactionsOf is the answer's transactions: "" when there are none, as WHMCS writes them.
func (f *Fake) transactionsOf(match func(*transaction) bool) (any, int) {
	var out []map[string]any
	for _, t := range f.transactions {
		if match(t) {
			out = append(out, f.transactionAnswer(t))
		}
	}
	if len(out) == 0 {
		return "", 0
	}
	return map[string]any{"transaction": out}, len(out)
}

func (f *Fake) getInvoice(p url.Values) map[string]any {
	inv := f.invoiceByID(atoi(p.Get("invoiceid")))
	if inv == nil {
		return errorAnswer("Invoice ID Not Found")
	}
	var items []map[string]any
	for _, it := range inv.Items {
		items = append(items, map[string]any{"id": it.ID, "type": it.Type, "relid": it.RelID,
			"description": it.Description, "amount": formatAmount(it.Amount), "taxed": 0})
	}
	txs, _ := f.transactionsOf(func(t *transaction) bool { return t.InvoiceID == inv.ID })
	balance := max(inv.Total-f.paid(inv), 0)
	return success("invoiceid", inv.ID, "invoicenum", "", "userid", inv.ClientID, "date", inv.Date,
		"duedate", inv.DueDate, "datepaid", inv.DatePaid, "lastcaptureattempt", noDate+" 00:00:00",
		"subtotal", formatAmount(inv.Total), "credit", "0.00", "tax", "0.00", "tax2", "0.00",
		"total", formatAmount(inv.Total), "balance", formatAmount(balance), "taxrate", "0.000", "taxrate2", "0.000",
		"status", inv.Status, "paymentmethod", inv.PaymentMethod, "notes", "", "ccgateway", false,
		"items", map[string]any{"item": items}, "transactions", txs)
}

func (f *Fake) getInvoices(p url.Values) map[string]any {
	var sel []*invoice
	for _, inv := range f.invoices {
		if (p.Get("userid") != "" && atoi(p.Get("userid")) != inv.ClientID) || (p.Get("status") != "" && p.Get("status") != inv.Status) {
			continue
		}
		sel = append(sel, inv)
	}
	start, end := page(p, len(sel))
	out := []map[string]any{}
	for _, inv := range sel[start:end] {
		out = append(out, map[string]any{"id": strconv.Itoa(inv.ID), "userid": strconv.Itoa(inv.ClientID),
			"date": inv.Date, "duedate": inv.DueDate, "datepaid": inv.DatePaid, "subtotal": formatAmount(inv.Total),
			"total": formatAmount(inv.Total), "status": inv.Status, "paymentmethod": inv.PaymentMethod, "currencycode": inv.Currency})
	}
	return success("totalresults", len(sel), "startnumber", start, "numreturned", len(out), "invoices", map[string]any{"invoice": out})
}

func (f *Fake) addInvoicePayment(p url.Values) map[string]any {
	inv := f.invoiceByID(atoi(p.Get("invoiceid")))
	if inv == nil {
		return errorAnswer("Invoice ID Not Found")
	}
	if inv.Status == "Cancelled" {
		return errorAnswer("It is not possible to add a payment to an invoice that is Cancelled")
	}
	gateway := p.Get("gateway")
	if !slices.ContainsFunc(f.seed.PaymentMethods, func(m PaymentMethod) bool { return m.Module == gateway }) {
		return errorAnswer("Invalid Payment Gateway Name")
	}
	if p.Get("transid") == "" {
		return errorAnswer("Transaction ID is required")
	}
	amount := max(inv.Total-f.paid(inv), 0)
	if v := p.Get("amount"); v != "" {
		a, err := parseAmount(v)
		if err != nil || a <= 0 {
			return errorAnswer("Invalid amount")
		}
		amount = a
	}
	fees, _ := parseAmount(p.Get("fees"))
	date := p.Get("date")
	if date == "" {
		date = f.stamp()
	}
	// Real WHMCS's handling of a repeated transid is not documented: the fake records it again,
	// so a caller that does not check first (GetTransactions) is seen paying twice.
	f.transactions = append(f.transactions, &transaction{ID: len(f.transactions) + 1, ClientID: inv.ClientID,
		Gateway: gateway, Date: date, Description: "Invoice Payment", AmountIn: amount, Fees: fees,
		TransID: p.Get("transid"), InvoiceID: inv.ID})
	if inv.Status == "Unpaid" && f.paid(inv) >= inv.Total {
		inv.Status, inv.DatePaid = "Paid", f.stamp()
		f.settle(inv)
	}
	return success()
}

// addTransaction records a transaction: money in (amountin), or out (amountout: a refund,
// which marks a paid invoice Refunded once all it took was paid back). A transaction id WHMCS
// holds already is refused unless allowduplicatetransid.
func (f *Fake) addTransaction(p url.Values) map[string]any {
	method := p.Get("paymentmethod")
	if !slices.ContainsFunc(f.seed.PaymentMethods, func(m PaymentMethod) bool { return m.Module == method }) {
		return errorAnswer("Invalid Payment Method")
	}
	clientID := atoi(p.Get("userid"))
	if clientID != 0 && f.clientByID(clientID) == nil {
		return errorAnswer("Client ID Not Found")
	}
	var inv *invoice
	if id := atoi(p.Get("invoiceid")); id != 0 {
		if inv = f.invoiceByID(id); inv == nil {
			return errorAnswer("Invoice ID Not Found")
		}
		if truthy(p.Get("credit")) {
			return errorAnswer("Invoice ID must not be provided when adding credit")
		}
		clientID = inv.ClientID
	}
	transID := p.Get("transid")
	if transID != "" && !truthy(p.Get("allowduplicatetransid")) &&
		slices.ContainsFunc(f.transactions, func(t *transaction) bool { return t.TransID == transID }) {
		return errorAnswer("Transaction ID must be unique")
	}
	amount := func(k string) (int64, bool) {
		if p.Get(k) == "" {
			return 0, true
		}
		a, err := parseAmount(p.Get(k))
		return a, err == nil && a >= 0
	}
	in, ok1 := amount("amountin")
	out, ok2 := amount("amountout")
	fees, _ := parseAmount(p.Get("fees"))
	if !ok1 || !ok2 || in+out == 0 {
		return errorAnswer("Invalid amount")
	}
	t := &transaction{ID: len(f.transactions) + 1, ClientID: clientID, Gateway: method, Date: f.stamp(),
		Description: p.Get("description"), AmountIn: in, AmountOut: out, Fees: fees, TransID: transID}
	if inv != nil {
		t.InvoiceID = inv.ID
	}
	f.transactions = append(f.transactions, t)
	if inv != nil && inv.Status == "Paid" && out > 0 {
		var back int64
		for _, x := range f.transactions {
			if x.InvoiceID == inv.ID {
				back += x.AmountOut
			}
		}
		if back >= inv.Total {
			inv.Status = "Refunded"
		}
	}
	return success()
}

func (f *Fake) getTransactions(p url.Values) map[string]any {
	txs, n := f.transactionsOf(func(t *transaction) bool {
		return (p.Get("invoiceid") == "" || atoi(p.Get("invoiceid")) == t.InvoiceID) &&
			(p.Get("clientid") == "" || atoi(p.Get("clientid")) == t.ClientID) &&
			(p.Get("transid") == "" || p.Get("transid") == t.TransID)
	})
	return success("totalresults", n, "startnumber", 0, "numreturned", n, "transactions", txs)
}

// --- services ---

func (f *Fake) serviceAnswer(s *service) map[string]any {
	prod, _ := f.product(s.PID)
	fields := []map[string]any{}
	for _, cf := range prod.CustomFields {
		fields = append(fields, map[string]any{"id": strconv.Itoa(cf.ID), "name": cf.Name, "translated_name": cf.Name, "value": s.CustomFields[cf.ID]})
	}
	opts := []map[string]any{}
	for _, id := range prod.ConfigOptions {
		o, _ := f.option(id)
		typ, val := "dropdown", ""
		switch o.Type {
		case OptionQuantity:
			typ, val = "quantity", strconv.Itoa(s.ConfigOptions[id])
		case OptionYesNo:
			typ, val = "yesno", strconv.Itoa(s.ConfigOptions[id])
		default:
			for _, so := range o.Options {
				if so.ID == s.ConfigOptions[id] {
					val = so.Name
				}
			}
		}
		opts = append(opts, map[string]any{"id": strconv.Itoa(id), "option": o.Name, "type": typ, "value": val})
	}
	hostname := ""
	if s.Status != "Pending" {
		hostname = f.seed.ServerHostname
	}
	return map[string]any{"id": strconv.Itoa(s.ID), "qty": "1", "clientid": strconv.Itoa(s.ClientID),
		"orderid": strconv.Itoa(s.OrderID), "ordernumber": fmt.Sprintf("%010d", 7000000000+s.OrderID),
		"pid": strconv.Itoa(s.PID), "regdate": s.RegDate, "name": prod.Name, "translated_name": prod.Name,
		"groupname": f.groupName(prod.GID), "translated_groupname": f.groupName(prod.GID), "domain": s.Domain,
		"dedicatedip": "", "serverid": "1", "servername": "Fake panel", "serverip": "192.0.2.10",
		"serverhostname": hostname, "suspensionreason": s.SuspensionReason,
		"firstpaymentamount": formatAmount(s.FirstPayment), "recurringamount": formatAmount(s.Recurring),
		"paymentmethod": s.PaymentMethod, "paymentmethodname": f.methodName(s.PaymentMethod),
		"billingcycle": cycleDisplay(s.Cycle), "nextduedate": s.NextDueDate, "status": s.Status,
		"username": s.Username, "password": s.Password, "subscriptionid": "", "promoid": "0",
		"overideautosuspend": "", "overidesuspenduntil": noDate, "ns1": "", "ns2": "", "assignedips": "",
		"notes": s.Notes, "diskusage": "0", "disklimit": "0", "bwusage": "0", "bwlimit": "0", "lastupdate": noDate + " 00:00:00",
		"customfields": map[string]any{"customfield": fields}, "configoptions": map[string]any{"configoption": opts}}
}

func (f *Fake) methodName(module string) string {
	for _, m := range f.seed.PaymentMethods {
		if m.Module == module {
			return m.DisplayName
		}
	}
	return module
}

func (f *Fake) getClientsProducts(p url.Values) map[string]any {
	var sel []*service
	for _, s := range f.services {
		if (p.Get("clientid") != "" && atoi(p.Get("clientid")) != s.ClientID) || (p.Get("serviceid") != "" && atoi(p.Get("serviceid")) != s.ID) ||
			(p.Get("pid") != "" && atoi(p.Get("pid")) != s.PID) || (p.Get("username2") != "" && p.Get("username2") != s.Username) ||
			(p.Get("domain") != "" && p.Get("domain") != s.Domain) {
			continue
		}
		sel = append(sel, s)
	}
	start, end := page(p, len(sel))
	out := []map[string]any{}
	for _, s := range sel[start:end] {
		out = append(out, f.serviceAnswer(s))
	}
	null := func(k string) any {
		if v := p.Get(k); v != "" {
			return v
		}
		return nil
	}
	return success("clientid", null("clientid"), "serviceid", null("serviceid"), "pid", null("pid"), "domain", nil,
		"totalresults", strconv.Itoa(len(sel)), "startnumber", start, "numreturned", len(out), "products", map[string]any{"product": out})
}

// serviceNotFound is the module commands' answer for an unknown service.
const serviceNotFound = "Service ID not found"

func (f *Fake) updateClientProduct(p url.Values) map[string]any {
	s := f.serviceByID(atoi(p.Get("serviceid")))
	if s == nil {
		return errorAnswer(serviceNotFound)
	}
	if v := p.Get("customfields"); v != "" {
		m, err := unserialize(v)
		if err != nil {
			return errorAnswer("Invalid customfields: " + err.Error())
		}
		prod, _ := f.product(s.PID)
		for id, val := range m {
			if !slices.ContainsFunc(prod.CustomFields, func(cf CustomField) bool { return cf.ID == id }) {
				return errorAnswer(fmt.Sprintf("Invalid Custom Field ID %d", id))
			}
			s.CustomFields[id] = val
		}
	}
	if v := p.Get("configoptions"); v != "" {
		m, err := unserializeOptions(v)
		if err != nil {
			return errorAnswer("Invalid configoptions: " + err.Error())
		}
		prod, _ := f.product(s.PID)
		cur := f.currencyByID(f.clientByID(s.ClientID).CurrencyID)
		var before, after int64
		for id, val := range m {
			o, ok := f.option(id)
			if !ok || !slices.Contains(prod.ConfigOptions, id) {
				return errorAnswer(fmt.Sprintf("Invalid Configurable Option ID %d", id))
			}
			q := val.Choice
			if o.Type == OptionQuantity || o.Type == OptionYesNo {
				// The documented form for these: array('optionid' => its choice, 'qty' => N).
				if val.Qty < 0 || len(o.Options) == 0 || val.Choice != o.Options[0].ID || (o.Type == OptionQuantity && (val.Qty < o.MinQty || val.Qty > o.MaxQty)) {
					return errorAnswer(fmt.Sprintf("Invalid value for configurable option %d", id))
				}
				q = val.Qty
			}
			before += f.optionPrice(prod, o, s.ConfigOptions[id], s.Cycle, cur.Code)
			after += f.optionPrice(prod, o, q, s.Cycle, cur.Code)
			s.ConfigOptions[id] = q
		}
		if truthy(p.Get("autorecalc")) && cycleMonths(s.Cycle) > 0 {
			s.Recurring += after - before // the options' prices follow; a recurring promotion stays
		}
	}
	set := map[string]*string{"notes": &s.Notes, "status": &s.Status, "nextduedate": &s.NextDueDate,
		"serviceusername": &s.Username, "servicepassword": &s.Password}
	for k, dst := range set {
		if v, ok := p[k]; ok {
			*dst = v[0]
		}
	}
	if v := p.Get("recurringamount"); v != "" {
		if a, err := parseAmount(v); err == nil {
			s.Recurring = a
		}
	}
	return success("serviceid", strconv.Itoa(s.ID))
}

func (f *Fake) upgradeProduct(p url.Values) map[string]any {
	s := f.serviceByID(atoi(p.Get("serviceid")))
	if s == nil {
		return errorAnswer(serviceNotFound)
	}
	if p.Get("type") != "configoptions" {
		return errorAnswer("The fake WHMCS upgrades configurable options only (type=configoptions)")
	}
	if s.Status != "Active" {
		return errorAnswer("Service must be active to be upgraded")
	}
	method := p.Get("paymentmethod")
	if !slices.ContainsFunc(f.seed.PaymentMethods, func(m PaymentMethod) bool { return m.Module == method }) {
		return errorAnswer("Invalid Payment Method")
	}
	prod, _ := f.product(s.PID)
	c := f.clientByID(s.ClientID)
	cur := f.currencyByID(c.CurrencyID)
	next := map[int]int{}
	for k, v := range s.ConfigOptions {
		next[k] = v
	}
	for id, v := range keyed(p, "configoptions") {
		o, ok := f.option(id)
		if !ok || !slices.Contains(prod.ConfigOptions, id) {
			return errorAnswer(fmt.Sprintf("Invalid Configurable Option ID %d", id))
		}
		q := atoi(v)
		if o.Type == OptionQuantity && (q < o.MinQty || q > o.MaxQty) {
			return errorAnswer(fmt.Sprintf("Invalid quantity %d for configurable option %d", q, id))
		}
		next[id] = q
	}
	var before, after int64
	for id := range next {
		o, _ := f.option(id)
		before += f.optionPrice(prod, o, s.ConfigOptions[id], s.Cycle, cur.Code)
		after += f.optionPrice(prod, o, next[id], s.Cycle, cur.Code)
	}
	// Prorated over what is left of the period, as WHMCS's upgrade calculation does.
	due, _ := time.Parse(time.DateOnly, s.NextDueDate)
	start := due.AddDate(0, -cycleMonths(s.Cycle), 0)
	total := max(int(due.Sub(start).Hours()/24), 1)
	today, _ := time.Parse(time.DateOnly, f.today())
	left := min(max(int(due.Sub(today).Hours()/24), 0), total)
	price := percentOf((after-before)*int64(left), strconv.FormatFloat(100/float64(total), 'f', 10, 64))
	shown := cur.Prefix + formatAmount(price) + cur.Suffix
	ans := success("oldproductid", strconv.Itoa(prod.PID), "oldproductname", prod.Name, "newproductid", prod.PID,
		"newproductname", prod.Name, "daysuntilrenewal", left, "totaldays", total,
		"newproductbillingcycle", s.Cycle, "price", shown)
	if truthy(p.Get("calconly")) {
		return ans
	}
	for _, o := range f.orders {
		if inv := f.invoiceByID(o.InvoiceID); o.UpgradeID != 0 && o.Status == "Pending" && inv != nil && inv.Status == "Unpaid" &&
			f.upgrades[o.UpgradeID-1].ServiceID == s.ID {
			return errorAnswer("Unable to accept upgrade order. Previous upgrade invoice for service is still unpaid.")
		}
	}
	u := &upgrade{ID: len(f.upgrades) + 1, ServiceID: s.ID, Options: next, Recurring: s.Recurring + after - before}
	f.upgrades = append(f.upgrades, u)
	o := &order{ID: len(f.orders) + 1, ClientID: c.ID, Date: f.stamp(), PaymentMethod: method, Status: "Pending", UpgradeID: u.ID, Amount: price}
	o.OrderNum = fmt.Sprintf("%010d", 7000000000+o.ID)
	f.orders = append(f.orders, o)
	var invoiceID any
	if price > 0 {
		inv := &invoice{ID: len(f.invoices) + 1, ClientID: c.ID, Date: f.today(), DueDate: f.today(),
			DatePaid: noDate + " 00:00:00", Status: "Unpaid", PaymentMethod: method, Currency: cur.Code, Total: price,
			Items: []item{{ID: f.nextItem(), Type: "Upgrade", RelID: u.ID, Amount: price,
				Description: fmt.Sprintf("Upgrade: %s - configurable options", prod.Name)}}}
		f.invoices = append(f.invoices, inv)
		o.InvoiceID, invoiceID = inv.ID, inv.ID
	} else {
		// Nothing to pay: the change applies at once.
		u.Paid = true
		for id, q := range next {
			s.ConfigOptions[id] = q
		}
		s.Recurring = u.Recurring
		o.Status = "Active"
		f.module = append(f.module, ModuleCall{s.ID, "ChangePackage"})
	}
	ans["id"], ans["orderid"], ans["order_number"], ans["invoiceid"] = strconv.Itoa(u.ID), o.ID, o.OrderNum, invoiceID
	return ans
}

func (f *Fake) moduleCreateAction(p url.Values) map[string]any {
	s := f.serviceByID(atoi(p.Get("serviceid")))
	if s == nil {
		return errorAnswer(serviceNotFound)
	}
	if s.Status == "Active" || s.Status == "Suspended" {
		return errorAnswer("An account already exists for this service")
	}
	f.moduleCreate(s)
	return success()
}

func (f *Fake) moduleSuspend(p url.Values) map[string]any {
	s := f.serviceByID(atoi(p.Get("serviceid")))
	if s == nil {
		return errorAnswer(serviceNotFound)
	}
	if s.Status != "Active" {
		return errorAnswer("Service is not active")
	}
	s.Status, s.SuspensionReason = "Suspended", p.Get("suspendreason")
	f.module = append(f.module, ModuleCall{s.ID, "SuspendAccount"})
	return success()
}

func (f *Fake) moduleUnsuspend(p url.Values) map[string]any {
	s := f.serviceByID(atoi(p.Get("serviceid")))
	if s == nil {
		return errorAnswer(serviceNotFound)
	}
	if s.Status != "Suspended" {
		return errorAnswer("Service is not suspended")
	}
	s.Status, s.SuspensionReason = "Active", ""
	f.module = append(f.module, ModuleCall{s.ID, "UnsuspendAccount"})
	return success()
}

func (f *Fake) moduleTerminate(p url.Values) map[string]any {
	s := f.serviceByID(atoi(p.Get("serviceid")))
	if s == nil {
		return errorAnswer(serviceNotFound)
	}
	if s.Status == "Terminated" {
		return errorAnswer("Service is already terminated")
	}
	s.Status = "Terminated"
	f.module = append(f.module, ModuleCall{s.ID, "TerminateAccount"})
	return success()
}

func (f *Fake) moduleChangePackage(p url.Values) map[string]any {
	s := f.serviceByID(atoi(p.Get("serviceid")))
	if s == nil {
		return errorAnswer(serviceNotFound)
	}
	f.module = append(f.module, ModuleCall{s.ID, "ChangePackage"})
	return success()
}

// CustomFunctions are the fake module's custom functions (ModuleCustom func_name).
var CustomFunctions = []string{"restart"}

func (f *Fake) moduleCustom(p url.Values) map[string]any {
	s := f.serviceByID(atoi(p.Get("serviceid")))
	if s == nil {
		return errorAnswer(serviceNotFound)
	}
	fn := p.Get("func_name")
	if !slices.Contains(CustomFunctions, fn) {
		return errorAnswer("Function Not Supported by Module")
	}
	if s.Status != "Active" {
		return errorAnswer("Service is not active")
	}
	f.module = append(f.module, ModuleCall{s.ID, fn})
	return success()
}

func (f *Fake) createSsoToken(p url.Values) map[string]any {
	if p.Get("client_id") != "" && f.clientByID(atoi(p.Get("client_id"))) == nil {
		return errorAnswer("Client ID Not Found")
	}
	f.sso++
	tok := randomHex(20)
	return success("access_token", tok, "redirect_url", "https://whmcs.invalid/oauth/singlesignon.php?access_token="+tok)
}
