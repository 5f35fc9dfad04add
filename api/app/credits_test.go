package app_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	gencatalog "github.com/streamcart/streamcart/gen/catalog"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/operator"
)

// productAvailable reads a plan's available flag from GET /products (the pre-encoded fast path)
// and from GET /products/{pid}.
func productAvailable(t *testing.T, s *shop, pid int) (list, one bool) {
	t.Helper()
	l, err := s.catalog.ListProducts(t.Context(), &gencatalog.ListProductsPayload{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range l.Products {
		if p.Pid == pid {
			list, found = p.Available, true
		}
	}
	if !found {
		t.Fatalf("plan %d not listed", pid)
	}
	p, err := s.catalog.GetProduct(t.Context(), &gencatalog.GetProductPayload{Pid: pid})
	if err != nil {
		t.Fatal(err)
	}
	return list, p.Available
}

// Credits before the sale: with the built-in panel's balance at 0 the plans that cost credits
// are unavailable and their orders answer 409 out_of_stock with no order or invoice stored, the
// free trial (no cost) still sells, and the owners get one alert mail per crossing of the mark.
func TestCreditsBeforeTheSale(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(c *app.Config) { c.PanelCreditsAlert = 10 })
		ctx := t.Context()
		st := s.app.Store()
		for _, o := range []struct {
			email string
			role  operator.Role
		}{{"owner@shop.test", operator.RoleOwner}, {"support@shop.test", operator.RoleSupport}} {
			if _, err := st.InsertOperator(ctx, operator.Operator{Email: o.email, Role: o.role, Status: operator.StatusPending,
				CreatedAt: time.Now()}, "hash-"+o.email, time.Now().Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		if list, one := productAvailable(t, s, 2); !list || !one {
			t.Fatalf("with 1000 credits plan 2 available: list %v, get %v", list, one)
		}
		if err := st.SetPanelCredits(ctx, 0); err != nil {
			t.Fatal(err)
		}
		token := s.identify("buyer@example.com", "").Token
		p := standard()
		p.Token = &token
		_, err := s.order.Create(ctx, &p)
		wantErr(t, err, "out_of_stock", "")
		if n := s.count(`SELECT COUNT(*) FROM orders`) + s.count(`SELECT COUNT(*) FROM invoices`); n != 0 {
			t.Fatalf("a refused order stored %d order and invoice rows", n)
		}
		if list, one := productAvailable(t, s, 2); list || one {
			t.Fatalf("with 0 credits plan 2 available: list %v, get %v", list, one)
		}
		if list, _ := productAvailable(t, s, 1); !list {
			t.Fatal("the free trial (no credits) became unavailable")
		}
		s.buy(token, trial())
		alerts := func() int {
			return s.count(`SELECT COUNT(*) FROM mail_outbox WHERE subject LIKE ?`, "%panel credits low%")
		}
		if n, to := alerts(), s.count(`SELECT COUNT(*) FROM mail_outbox WHERE to_addr = ? AND subject LIKE ?`, "owner@shop.test", "%panel credits low%"); n != 1 || to != 1 {
			t.Fatalf("%d alert mails (%d to the owner), want one, to the owner only", n, to)
		}
		for range 3 { // still low: no more mail
			if _, err := s.app.RefreshCredits(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if n := alerts(); n != 1 {
			t.Fatalf("%d alert mails while the balance stays low, want 1", n)
		}
		if err := st.SetPanelCredits(ctx, 500); err != nil {
			t.Fatal(err)
		}
		if changed, err := s.app.RefreshCredits(ctx); err != nil || !changed {
			t.Fatalf("refresh after the top-up: %v, %v", changed, err)
		}
		if list, one := productAvailable(t, s, 2); !list || !one {
			t.Fatalf("after the top-up plan 2 unavailable: list %v, get %v", list, one)
		}
		s.buy(token, standard())
		if err := st.SetPanelCredits(ctx, 3); err != nil { // under the mark again: a new crossing
			t.Fatal(err)
		}
		if _, err := s.app.RefreshCredits(ctx); err != nil {
			t.Fatal(err)
		}
		if n := alerts(); n != 2 {
			t.Fatalf("%d alert mails after a second crossing, want 2", n)
		}
		code, _, body := s.raw(http.MethodGet, "/metrics", "", nil)
		if code != http.StatusOK || !strings.Contains(string(body), "streamcart_panel_credits 3") || !strings.Contains(string(body), `streamcart_line_drift_total{kind="missing"} 0`) {
			t.Fatalf("/metrics %d lacks the credit balance or the drift counter:\n%s", code, body)
		}
	})
}
