package provision_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/provision"
)

// outboxStore keeps queued mail in memory.
type outboxStore struct{ queued []mail.Message }

func (s *outboxStore) QueueMail(_ context.Context, m mail.Message, _ string, _ bool, _ time.Time) (int64, error) {
	s.queued = append(s.queued, m)
	return int64(len(s.queued)), nil
}
func (s *outboxStore) Mail(context.Context, int64) (mail.Stored, error) {
	return mail.Stored{}, mail.ErrNotFound
}
func (s *outboxStore) ListMail(context.Context, int) ([]mail.Stored, error) { return nil, nil }
func (s *outboxStore) MarkMail(context.Context, int64, string, string, time.Time) error {
	return nil
}

func TestMailLinksTheOrdersPageInItsLocale(t *testing.T) {
	for _, tc := range []struct {
		name, locale string
		send         func(provision.Mail, context.Context, order.Order) error
		wantLink     string
		wantTotal    bool
	}{
		{"received, German", "de-de", provision.Mail.OrderReceived, "https://shop.example/checkout/de-de/waiting?order=ord_1", true},
		{"received, English", "en", provision.Mail.OrderReceived, "https://shop.example/checkout/waiting?order=ord_1", true},
		{"ready, Dutch", "nl-nl", provision.Mail.LinesReady, "https://shop.example/checkout/nl-nl/success?order=ord_1", false},
		{"ready, a locale without pages", "fr-fr", provision.Mail.LinesReady, "https://shop.example/checkout/success?order=ord_1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &outboxStore{}
			m := provision.Mail{Outbox: mail.NewOutbox(st, nil, nil), Shop: "Test Shop", Base: "https://shop.example/"}
			o := order.Order{ID: "ord_1", Email: "buyer@example.com", Locale: tc.locale,
				Invoice: order.Invoice{Amount: money.Money{Amount: 1299, Currency: "EUR"}}}
			if err := tc.send(m, t.Context(), o); err != nil {
				t.Fatal(err)
			}
			if len(st.queued) != 1 {
				t.Fatalf("queued %d messages, want 1", len(st.queued))
			}
			msg := st.queued[0]
			if msg.To != "buyer@example.com" || !strings.Contains(msg.Body, tc.wantLink) || !strings.Contains(msg.Body, "ord_1") {
				t.Fatalf("message to %s:\n%s\nwant a link to %s and the order id", msg.To, msg.Body, tc.wantLink)
			}
			if total := mail.FormatMoney(1299, "EUR", tc.locale); strings.Contains(msg.Body, total) != tc.wantTotal {
				t.Errorf("the total %q in the body: %v, want %v", total, !tc.wantTotal, tc.wantTotal)
			}
		})
	}
}

// The order mail lists what was bought in the buyer's language: the plan and its cycle, the
// extra connections with their count, proxy protection, the discount, then the total.
func TestOrderMailIsItemised(t *testing.T) {
	eur := func(minor int64) money.Money { return money.Money{Amount: minor, Currency: "EUR"} }
	quote := pricing.Quote{Cycle: catalog.Quarterly, Currency: "EUR", ExtraConnections: 2,
		Lines: []pricing.Line{{Key: pricing.LinePlan, Label: "Premium — Quarterly", Amount: eur(3299)},
			{Key: pricing.LineExtraConnections, Label: "2 extra connections", Amount: eur(1000)},
			{Key: pricing.LineProxyProtection, Label: "Proxy protection", Amount: eur(500)}},
		Discount: &pricing.Discount{Code: "WELCOME", Amount: eur(480)}, Total: eur(4319)}
	for _, tc := range []struct{ locale, want string }{
		{"de-de", "Premium — vierteljährlich: 32,99\u00a0€\nZusätzliche Verbindungen × 2: 10,00\u00a0€\nProxy-Schutz: 5,00\u00a0€\nRabatt (WELCOME): −4,80\u00a0€\nGesamt: 43,19\u00a0€\n"},
		{"en", "Premium — quarterly: €32.99\nExtra connections × 2: €10.00\nProxy protection: €5.00\nDiscount (WELCOME): −€4.80\nTotal: €43.19\n"},
	} {
		t.Run(tc.locale, func(t *testing.T) {
			st := &outboxStore{}
			m := provision.Mail{Outbox: mail.NewOutbox(st, nil, nil), Shop: "Test Shop", Base: "https://shop.example/"}
			o := order.Order{ID: "ord_1", Email: "buyer@example.com", Locale: tc.locale, Quote: quote,
				Invoice: order.Invoice{Amount: eur(4319)}}
			if err := m.OrderReceived(t.Context(), o); err != nil {
				t.Fatal(err)
			}
			if len(st.queued) != 1 || !strings.Contains(st.queued[0].Body, tc.want) {
				t.Fatalf("want\n%s\nin\n%+v", tc.want, st.queued)
			}
		})
	}
}
