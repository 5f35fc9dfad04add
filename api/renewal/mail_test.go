package renewal_test

import (
	"context"
	"errors"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/paylink"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/renewal"
)

// reminderStore records each order's mail of a kind once, and reads orders by invoice.
type reminderStore struct {
	queued   map[string]mail.Message // by order id and kind
	invoices map[string]order.Order
}

func (s *reminderStore) QueueReminder(_ context.Context, orderID, kind string, _ time.Time, m mail.Message, _ string, _ bool, _ time.Time) (bool, error) {
	key := orderID + " " + kind
	if _, ok := s.queued[key]; ok {
		return false, nil
	}
	s.queued[key] = m
	return true, nil
}

func (s *reminderStore) InvoiceOrder(_ context.Context, invoiceID string) (order.Order, error) {
	o, ok := s.invoices[invoiceID]
	if !ok {
		return order.Order{}, order.ErrNotFound
	}
	return o, nil
}

var (
	mailNow  = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	linkText = regexp.MustCompile(`https?://\S+`)
)

func newMail(st *reminderStore) (renewal.Mail, *paylink.Signer) {
	links := paylink.New([]byte("0123456789abcdef0123456789abcdef"), func() time.Time { return mailNow })
	return renewal.Mail{Outbox: mail.NewOutbox(storelessMail{}, nil, nil), Store: st, Links: links, Shop: "Test Shop", Base: "https://shop.example"}, links
}

// storelessMail is an outbox store SendOnce never reaches: reminders go through QueueReminder.
type storelessMail struct{ mail.Store }

func renewalOrder(id, locale string) order.Order {
	return order.Order{ID: id, Kind: order.KindRenewal, Email: "buyer@example.com", Locale: locale,
		Invoice: order.Invoice{ID: "inv_" + id, Amount: money.Money{Amount: 1299, Currency: "EUR"}, Deadline: mailNow.Add(72 * time.Hour)}}
}

func TestMailLinks(t *testing.T) {
	for _, tc := range []struct {
		name     string
		kind     mail.Kind
		locale   string
		wantPath string
		payLink  bool
	}{
		{"renewal invoice in German", mail.KindRenewalInvoice, "de-de", "/checkout/de-de/renew", true},
		{"overdue in English", mail.KindRenewalOverdue, "en", "/checkout/renew", true},
		{"trial ending in Portuguese", mail.KindTrialEnding, "pt-pt", "/checkout/pt-pt/", false},
		{"trial ending, a locale without pages", mail.KindTrialEnding, "fr-fr", "/checkout/", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &reminderStore{queued: map[string]mail.Message{}}
			m, links := newMail(st)
			o := renewalOrder("ord_1", tc.locale)
			n := renewal.Notice{Kind: tc.kind, Order: o, Due: mailNow.Add(48 * time.Hour), Suspend: mailNow.Add(120 * time.Hour)}
			if queued, err := m.Notify(t.Context(), n, mailNow); err != nil || !queued {
				t.Fatalf("Notify = %v, %v; want queued", queued, err)
			}
			msg := st.queued["ord_1 "+string(tc.kind)]
			raw := linkText.FindString(msg.Body)
			u, err := url.Parse(raw)
			if err != nil || u.Host != "shop.example" || u.Path != tc.wantPath {
				t.Fatalf("link %q in:\n%s\nwant path %s", raw, msg.Body, tc.wantPath)
			}
			q := u.Query()
			if tc.payLink {
				if q.Get("invoice") != "inv_ord_1" || links.Check("inv_ord_1", q.Get("t")) != nil {
					t.Fatalf("pay link %s does not open its invoice", raw)
				}
			} else if q.Get("view") != "services" {
				t.Fatalf("trial link %s does not open the services view", raw)
			}
			if queued, err := m.Notify(t.Context(), n, mailNow); err != nil || queued {
				t.Fatalf("second Notify = %v, %v; want nothing queued", queued, err)
			}
		})
	}
}

func TestRenewalMailWithoutAnInvoiceToPay(t *testing.T) {
	st := &reminderStore{queued: map[string]mail.Message{}}
	m, _ := newMail(st)
	o := renewalOrder("ord_1", "en")
	o.Invoice.Deadline = time.Time{}
	if _, err := m.Notify(t.Context(), renewal.Notice{Kind: mail.KindRenewalDue, Order: o}, mailNow); err == nil {
		t.Fatal("a renewal mail with no deadline to pay by was written")
	}
	if len(st.queued) != 0 {
		t.Fatalf("queued %v", st.queued)
	}
}

func TestPayLink(t *testing.T) {
	renewalInvoice := renewalOrder("ord_r", "es-es")
	plan := renewalOrder("ord_p", "es-es")
	plan.Kind = order.KindPlan
	st := &reminderStore{invoices: map[string]order.Order{"inv_ord_r": renewalInvoice, "inv_ord_p": plan}}
	m, links := newMail(st)
	for _, tc := range []struct {
		invoice string
		wantErr error
	}{
		{"inv_ord_r", nil},
		{"inv_ord_p", renewal.ErrNotRenewal},
		{"inv_none", order.ErrNotFound},
	} {
		link, err := m.PayLink(t.Context(), tc.invoice)
		if !errors.Is(err, tc.wantErr) {
			t.Fatalf("PayLink(%s) error = %v, want %v", tc.invoice, err, tc.wantErr)
		}
		if err != nil {
			continue
		}
		u, _ := url.Parse(link)
		if u.Path != "/checkout/es-es/renew" || links.Check(tc.invoice, u.Query().Get("t")) != nil {
			t.Fatalf("PayLink(%s) = %s", tc.invoice, link)
		}
	}
}

// The renewal mails list the renewal's items; the renewal-paid mail goes once, with the new due
// date, the invoice's PDF and the services view.
func TestRenewalMailsAreItemisedAndThePaidOneLinksThePDF(t *testing.T) {
	st := &reminderStore{queued: map[string]mail.Message{}}
	m, _ := newMail(st)
	m.Receipt = func(id string) (string, error) {
		return "https://shop.example/checkout/api/invoices/" + id + ".pdf?t=tok", nil
	}
	o := renewalOrder("ord_1", "de-de")
	o.Quote = pricing.Quote{Cycle: catalog.Monthly, Currency: "EUR",
		Lines: []pricing.Line{{Key: pricing.LinePlan, Label: "Standard — Monthly", Amount: money.Money{Amount: 1299, Currency: "EUR"}}},
		Total: money.Money{Amount: 1299, Currency: "EUR"}}
	if _, err := m.Notify(t.Context(), renewal.Notice{Kind: mail.KindRenewalInvoice, Order: o, Due: mailNow}, mailNow); err != nil {
		t.Fatal(err)
	}
	if body := st.queued["ord_1 renewal-invoice"].Body; !strings.Contains(body, "Standard — monatlich: 12,99\u00a0€\nGesamt: 12,99\u00a0€\n") {
		t.Errorf("renewal invoice mail is not itemised:\n%s", body)
	}
	o.Invoice.Number = "SC-2026-000011"
	due := time.Date(2027, 1, 23, 0, 0, 0, 0, time.UTC)
	n := renewal.Notice{Kind: mail.KindRenewalPaid, Order: o, Due: due}
	if queued, err := m.Notify(t.Context(), n, mailNow); err != nil || !queued {
		t.Fatalf("Notify = %v, %v", queued, err)
	}
	if queued, _ := m.Notify(t.Context(), n, mailNow); queued {
		t.Fatal("the renewal-paid mail went twice")
	}
	body := st.queued["ord_1 renewal-paid"].Body
	for _, w := range []string{"bis zum 23. Januar 2027", "Standard — monatlich: 12,99\u00a0€", "https://shop.example/checkout/de-de/?view=services",
		"Ihre Rechnung SC-2026-000011 (PDF):\nhttps://shop.example/checkout/api/invoices/inv_ord_1.pdf?t=tok\n"} {
		if !strings.Contains(body, w) {
			t.Errorf("no %q in the renewal-paid mail:\n%s", w, body)
		}
	}
}
