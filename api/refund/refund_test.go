package refund_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/id"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/refund"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// refusing is a gateway whose refunds fail.
type refusing struct{ payment.Sandbox }

func (refusing) Module() string { return "sandbox" }
func (refusing) RefundAmount(context.Context, order.Review, money.Money) (string, error) {
	return "", errors.New("provider down")
}

// paidOrder places and settles a monthly order (EUR 12.99) on st.
func paidOrder(t *testing.T, st storetest.Inspector, orders *order.Orders, now time.Time, n int) order.Order {
	t.Helper()
	c, _, err := st.EnsureClient(t.Context(), fmt.Sprintf("b%d@example.com", n))
	if err != nil {
		t.Fatal(err)
	}
	ses := account.Session{ID: id.New("ses_"), ClientID: c.ID, Scope: authz.ScopeEmail, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
	if err := st.CreateSession(t.Context(), ses); err != nil {
		t.Fatal(err)
	}
	claims := authz.Claims{ClientID: c.ID, SessionID: ses.ID, Scope: ses.Scope}
	o, err := orders.Create(t.Context(), claims, order.Request{Quote: pricing.Request{PID: 2, Cycle: "monthly", Currency: "EUR"}})
	if err != nil {
		t.Fatal(err)
	}
	if o, err = orders.Settle(t.Context(), o.Invoice.ID, "txn_"+o.ID); err != nil {
		t.Fatal(err)
	}
	return o
}

// Each refund, partial or the rest, issues a credit note numbered from its own sequence with the
// seller's pattern, referring to the invoice; a refund the gateway refuses issues none.
func TestRefundsIssueNumberedCreditNotes(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		st := b.Open(t)
		now := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
		clock := func() time.Time { return now }
		az, err := authz.NewAuthorizer()
		if err != nil {
			t.Fatal(err)
		}
		orders := order.New(st, catalog.Demo, []order.Gateway{payment.Sandbox{}}, az, order.Config{}, slog.New(slog.DiscardHandler), clock)
		o := paidOrder(t, st, orders, now, 1)
		if o.Invoice.Number != "SC-2026-000001" {
			t.Fatalf("invoice number %q", o.Invoice.Number)
		}

		down := refund.New(st, []order.Gateway{refusing{}}, orders, order.Homes{}, nil, clock)
		if _, err := down.Order(t.Context(), o, refund.Request{Amount: 300, Reason: "test", Operator: "owner", KeepLine: true}); !errors.Is(err, refund.ErrFailed) {
			t.Fatalf("refused refund: %v", err)
		}

		svc := refund.New(st, []order.Gateway{payment.Sandbox{}}, orders, order.Homes{}, nil, clock)
		svc.NumberCreditNotes(func() string { return "R/{YY}/{seq:04}" })
		if _, err := svc.Order(t.Context(), o, refund.Request{Amount: 300, Reason: "part", Operator: "owner", KeepLine: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Order(t.Context(), o, refund.Request{Reason: "rest", Operator: "owner", KeepLine: true}); err != nil {
			t.Fatal(err)
		}
		notes, err := st.OrderCreditNotes(t.Context(), o.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(notes) != 2 {
			t.Fatalf("credit notes: %+v", notes)
		}
		for i, want := range []struct {
			number string
			amount int64
		}{{"R/26/0001", 300}, {"R/26/0002", 999}} {
			n := notes[i]
			if n.Number != want.number || n.Amount != (money.Money{Amount: want.amount, Currency: "EUR"}) || n.InvoiceID != o.Invoice.ID || n.OrderID != o.ID {
				t.Errorf("credit note %d: %+v, want %s of %d", i, n, want.number, want.amount)
			}
			got, err := st.CreditNote(t.Context(), n.ID)
			if err != nil || got.Number != n.Number {
				t.Errorf("CreditNote(%s) = %+v, %v", n.ID, got, err)
			}
		}
		if _, err := st.CreditNote(t.Context(), "cn_missing"); !errors.Is(err, refund.ErrNoCreditNote) {
			t.Errorf("missing credit note: %v", err)
		}
		// The invoice sequence is not the credit notes': the next paid invoice is 2.
		if next := paidOrder(t, st, orders, now, 2); next.Invoice.Number != "SC-2026-000002" {
			t.Fatalf("next invoice %q", next.Invoice.Number)
		}
	})
}
