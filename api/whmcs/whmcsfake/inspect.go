package whmcsfake

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
)

func jsonNumber(s string) json.Number { return json.Number(s) }

// State is what the fake holds now, for tests' assertions and `GET /_fake/state`: the records a
// WHMCS admin would see (amounts as decimals, as WHMCS shows them).
type State struct {
	Clients      []ClientState      `json:"clients"`
	Orders       []OrderState       `json:"orders"`
	Invoices     []InvoiceState     `json:"invoices"`
	Transactions []TransactionState `json:"transactions"`
	Services     []ServiceState     `json:"services"`
	Promotions   []PromotionUses    `json:"promotions"`
	Module       []ModuleCall       `json:"module"` // the IPTV module's calls, oldest first
}

// ClientState is a client.
type ClientState struct {
	ID       int    `json:"id"`
	Email    string `json:"email"`
	Country  string `json:"country"`
	Currency string `json:"currency"`
	Language string `json:"language"`
}

// OrderState is an order; PriceOverride reports an AddOrder that sent priceoverride.
type OrderState struct {
	ID            int    `json:"id"`
	ClientID      int    `json:"clientId"`
	Status        string `json:"status"`
	InvoiceID     int    `json:"invoiceId"`
	ServiceIDs    []int  `json:"serviceIds"`
	PromoCode     string `json:"promoCode"`
	PaymentMethod string `json:"paymentMethod"`
	Amount        string `json:"amount"`
	PriceOverride bool   `json:"priceOverride"`
	Upgrade       bool   `json:"upgrade"`
}

// InvoiceState is an invoice.
type InvoiceState struct {
	ID       int    `json:"id"`
	ClientID int    `json:"clientId"`
	Status   string `json:"status"`
	Total    string `json:"total"`
	Balance  string `json:"balance"`
	DueDate  string `json:"dueDate"`
	Currency string `json:"currency"`
}

// TransactionState is a payment recorded on an invoice.
type TransactionState struct {
	ID        int    `json:"id"`
	InvoiceID int    `json:"invoiceId"`
	TransID   string `json:"transId"`
	Gateway   string `json:"gateway"`
	Amount    string `json:"amount"`
	Refunded  string `json:"refunded"` // amountout: money paid back
}

// ServiceState is a service (a line).
type ServiceState struct {
	ID            int            `json:"id"`
	ClientID      int            `json:"clientId"`
	OrderID       int            `json:"orderId"`
	PID           int            `json:"pid"`
	Status        string         `json:"status"`
	Cycle         string         `json:"cycle"`
	NextDueDate   string         `json:"nextDueDate"`
	Username      string         `json:"username"`
	Recurring     string         `json:"recurring"`
	ConfigOptions map[int]int    `json:"configOptions"`
	CustomFields  map[int]string `json:"customFields"`
	Domain        string         `json:"domain"`
}

// PromotionUses is a promotion's use count.
type PromotionUses struct {
	Code string `json:"code"`
	Uses int    `json:"uses"`
}

// State returns a copy of what the fake holds.
func (f *Fake) State() State {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := State{Module: append([]ModuleCall{}, f.module...)}
	for _, c := range f.clients {
		st.Clients = append(st.Clients, ClientState{c.ID, c.Email, c.Country, f.currencyByID(c.CurrencyID).Code, c.Language})
	}
	for _, o := range f.orders {
		st.Orders = append(st.Orders, OrderState{o.ID, o.ClientID, o.Status, o.InvoiceID, append([]int{}, o.ServiceIDs...),
			o.PromoCode, o.PaymentMethod, formatAmount(o.Amount), o.PriceOverride, o.UpgradeID != 0})
	}
	for _, inv := range f.invoices {
		st.Invoices = append(st.Invoices, InvoiceState{inv.ID, inv.ClientID, inv.Status, formatAmount(inv.Total),
			formatAmount(max(inv.Total-f.paid(inv), 0)), inv.DueDate, inv.Currency})
	}
	for _, t := range f.transactions {
		st.Transactions = append(st.Transactions, TransactionState{t.ID, t.InvoiceID, t.TransID, t.Gateway, formatAmount(t.AmountIn), formatAmount(t.AmountOut)})
	}
	for _, s := range f.services {
		opts, fields := map[int]int{}, map[int]string{}
		for k, v := range s.ConfigOptions {
			opts[k] = v
		}
		for k, v := range s.CustomFields {
			fields[k] = v
		}
		st.Services = append(st.Services, ServiceState{s.ID, s.ClientID, s.OrderID, s.PID, s.Status, s.Cycle,
			s.NextDueDate, s.Username, formatAmount(s.Recurring), opts, fields, s.Domain})
	}
	for _, p := range f.promotions {
		st.Promotions = append(st.Promotions, PromotionUses{p.Code, p.Uses})
	}
	return st
}

// ControlPath prefixes the fake's own control routes (Control).
const ControlPath = "/_fake/"

// Control serves the fake's control routes, for a person trying the WHMCS mode by hand (the
// whmcs-fake command mounts them beside the API; tests call the methods directly):
//
//	GET  /_fake/state                  State as JSON
//	POST /_fake/cron                   RunCron
//	POST /_fake/cron?date=2027-01-15   RunCronAt that day (400 for a date that is not YYYY-MM-DD)
//	POST /_fake/fault?invalid_ip=IP    answer 403 Invalid IP IP ("" lifts it)
//	POST /_fake/fault?maintenance=on   answer the HTML maintenance page (off lifts it)
//	POST /_fake/fault?status=503       answer HTTP 503 (0 lifts it)
//	POST /_fake/fault?fail=Action&message=Text   Action answers result error (no message lifts it)
func (f *Fake) Control() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+ControlPath+"state", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, f.State())
	})
	mux.HandleFunc("POST "+ControlPath+"cron", func(w http.ResponseWriter, r *http.Request) {
		d := r.URL.Query().Get("date")
		if d == "" {
			writeJSON(w, http.StatusOK, f.RunCron())
			return
		}
		at, err := time.Parse(time.DateOnly, d)
		if err != nil {
			http.Error(w, "date: want YYYY-MM-DD, the day the cron runs as", http.StatusBadRequest)
			return
		}
		writeJSON(w, http.StatusOK, f.RunCronAt(at.Add(9*time.Hour))) // WHMCS's daily cron, run in the morning

	})
	mux.HandleFunc("POST "+ControlPath+"fault", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Has("invalid_ip") {
			f.SetInvalidIP(q.Get("invalid_ip"))
		}
		if q.Has("maintenance") {
			f.SetMaintenance(q.Get("maintenance") == "on")
		}
		if q.Has("status") {
			n, err := strconv.Atoi(q.Get("status"))
			if err != nil || (n != 0 && (n < 400 || n > 599)) {
				http.Error(w, "status: want 0 or an HTTP error code", http.StatusBadRequest)
				return
			}
			f.SetStatus(n)
		}
		if a := strings.TrimSpace(q.Get("fail")); a != "" {
			f.Fail(a, q.Get("message"))
		}
		w.WriteHeader(http.StatusNoContent)
	})
	return mux
}

// EditProduct changes product pid as a WHMCS admin would (a price, a name); false when there is
// no such product.
func (f *Fake) EditProduct(pid int, edit func(*Product)) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.seed.Products {
		if f.seed.Products[i].PID == pid {
			p := f.seed.Products[i]
			p.Pricing = Pricing{}
			for cur, ps := range f.seed.Products[i].Pricing {
				p.Pricing[cur] = Prices{}
				for k, v := range ps {
					p.Pricing[cur][k] = v
				}
			}
			edit(&p)
			// The seed's slices are shared with Demo's callers only through copies: replace, not mutate.
			products := append([]Product(nil), f.seed.Products...)
			products[i] = p
			f.seed.Products = products
			return true
		}
	}
	return false
}

// SetPromotion adds promotion p, or replaces the one with its code, as a WHMCS admin would
// (Setup → Promotions); its id is kept, or the next one for a new code.
func (f *Fake) SetPromotion(p Promotion) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, old := range f.promotions {
		if strings.EqualFold(old.Code, p.Code) {
			p.ID = old.ID
			f.promotions[i] = &p
			return
		}
	}
	p.ID = len(f.promotions) + 1
	f.promotions = append(f.promotions, &p)
}
