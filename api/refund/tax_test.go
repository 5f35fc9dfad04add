package refund_test

import (
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/id"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/refund"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// Refunds of a taxed order give back its tax in proportion, partial ones too: 40 refunds at once
// (39 of 0.32, then the rest) give back exactly the invoice's tax, each credit note's net and tax
// adding up to its amount. An untaxed order's notes give back no tax.
func TestRefundsGiveBackTaxInProportion(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		st := b.Open(t)
		now := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
		clock := func() time.Time { return now }
		az, err := authz.NewAuthorizer()
		if err != nil {
			t.Fatal(err)
		}
		taxed, err := catalog.Parse("demo.yaml", append(catalog.DemoYAML(), "\ntax: {pricesIncludeTax: true, rates: {DE: \"19\"}}\n"...))
		if err != nil {
			t.Fatal(err)
		}
		orders := order.New(st, func() *catalog.Catalog { return taxed }, []order.Gateway{payment.Sandbox{}}, az, order.Config{},
			slog.New(slog.DiscardHandler), clock)
		c, _, err := st.EnsureClient(t.Context(), "steuer@example.de")
		if err != nil {
			t.Fatal(err)
		}
		ses := account.Session{ID: id.New("ses_"), ClientID: c.ID, Scope: authz.ScopeEmail, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
		if err := st.CreateSession(t.Context(), ses); err != nil {
			t.Fatal(err)
		}
		claims := authz.Claims{ClientID: c.ID, SessionID: ses.ID, Scope: ses.Scope}
		o, err := orders.Create(t.Context(), claims, order.Request{Quote: pricing.Request{PID: 2, Cycle: "monthly", BillingCountry: "DE"}})
		if err != nil {
			t.Fatal(err)
		}
		if o, err = orders.Settle(t.Context(), o.Invoice.ID, "txn_"+o.ID); err != nil {
			t.Fatal(err)
		}
		// 12.99 with 19 % in it: 10.92 net, 2.07 VAT.
		if o.Quote.Tax == nil || o.Quote.Tax.Amount != 207 || o.Invoice.Amount.Amount != 1299 {
			t.Fatalf("order tax %+v, invoice %+v", o.Quote.Tax, o.Invoice.Amount)
		}
		svc := refund.New(st, []order.Gateway{payment.Sandbox{}}, orders, order.Homes{}, nil, clock)
		var wg sync.WaitGroup
		errs := make(chan error, 39)
		for range 39 {
			wg.Go(func() {
				if _, err := svc.Order(t.Context(), o, refund.Request{Amount: 32, Reason: "part", Operator: "owner", KeepLine: true}); err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if _, err := svc.Order(t.Context(), o, refund.Request{Reason: "rest", Operator: "owner", KeepLine: true}); err != nil {
			t.Fatal(err)
		}
		notes, err := st.OrderCreditNotes(t.Context(), o.ID)
		if err != nil {
			t.Fatal(err)
		}
		var amount, tax int64
		for _, n := range notes {
			if n.Net.Amount+n.Tax.Amount != n.Amount.Amount || n.Tax.Currency != "EUR" || n.Tax.Amount < 5 || n.Tax.Amount > 6 && n.Amount.Amount == 32 {
				t.Errorf("credit note %s: amount %v tax %v net %v", n.Number, n.Amount, n.Tax, n.Net)
			}
			amount, tax = amount+n.Amount.Amount, tax+n.Tax.Amount
		}
		if len(notes) != 40 || amount != 1299 || tax != 207 {
			t.Fatalf("%d notes giving back %d with %d tax, want 40, 1299 and 207", len(notes), amount, tax)
		}

		// Without a tax block: no tax given back, the net is the amount.
		plain := order.New(st, catalog.Demo, []order.Gateway{payment.Sandbox{}}, az, order.Config{}, slog.New(slog.DiscardHandler), clock)
		p := paidOrder(t, st, plain, now, 7)
		if _, err := refund.New(st, []order.Gateway{payment.Sandbox{}}, plain, order.Homes{}, nil, clock).Order(t.Context(), p, refund.Request{Amount: 300, Reason: "part", Operator: "owner", KeepLine: true}); err != nil {
			t.Fatal(err)
		}
		pn, err := st.OrderCreditNotes(t.Context(), p.ID)
		if err != nil || len(pn) != 1 || pn[0].Tax.Amount != 0 || pn[0].Net.Amount != 300 {
			t.Fatalf("untaxed credit note: %+v, %v", pn, err)
		}
	})
}
