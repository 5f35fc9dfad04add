package main

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/config"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/paylink"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/provision"
	"github.com/streamcart/streamcart/api/shoplink"
)

const mailPreviewUsage = "mail preview KIND [--locale LOCALE] [--raw]: KIND is one of %s; LOCALE one of %s"

// mailPreview runs `mail preview KIND --locale de-de`: it prints the message KIND rendered from
// sample data, its text and HTML parts, or with --raw the whole MIME message as delivery sends it.
// It reads no database: a template can be checked before the shop runs.
func mailPreview(args []string, out io.Writer) error {
	kinds := make([]string, len(mail.Kinds))
	for i, k := range mail.Kinds {
		kinds[i] = string(k)
	}
	help := fmt.Sprintf(mailPreviewUsage, strings.Join(kinds, ", "), strings.Join(mail.Locales, ", "))
	s := config.New("mail preview")
	var store, base string
	s.String(&store, "store-name", "Streamcart", "shop name")
	s.URL(&base, "public-url", "https://shop.example", "origin of the links", "http", "https")
	fs := s.Flags()
	locale := fs.String("locale", "en", "language of the message")
	raw := fs.Bool("raw", false, "print the whole MIME message (headers, both parts encoded) instead")
	if err := s.Parse(args, out); err != nil {
		if errors.Is(err, config.ErrHelp) {
			fmt.Fprintln(out, "Usage: streamcart "+help)
		}
		return err
	}
	pos := s.Args()
	if len(pos) != 1 {
		return errors.New(help)
	}
	kind, err := mail.ParseKind(pos[0])
	if err != nil {
		return err
	}
	l := strings.ToLower(*locale)
	if !slices.Contains(mail.Locales, l) {
		return fmt.Errorf("mail preview: no locale %q (one of %s)", *locale, strings.Join(mail.Locales, ", "))
	}
	r, err := mail.Render(kind, l, sampleData(kind, l, strings.TrimRight(base, "/"), store))
	if err != nil {
		return err
	}
	if *raw {
		at := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
		b, err := mail.Format("shop@shop.example", mail.Stored{ID: 1, Message: r.Message("buyer@example.com"), CreatedAt: at})
		if err != nil {
			return err
		}
		_, err = out.Write(b)
		return err
	}
	_, err = fmt.Fprintf(out, "Subject: %s\nLocale: %s\n\n--- text/plain ---\n%s\n--- text/html ---\n%s", r.Subject, l, r.Text, r.HTML)
	return err
}

// sampleOrder is a made-up quarterly plan with two extra connections, proxy protection and a
// promo code, totalling the sample's €12.99.
func sampleOrder(locale string) order.Order {
	eur := func(minor int64) money.Money { return money.Money{Amount: minor, Currency: "EUR"} }
	return order.Order{Locale: locale, Quote: pricing.Quote{Cycle: catalog.Quarterly, Currency: "EUR", ExtraConnections: 2,
		Lines: []pricing.Line{
			{Key: pricing.LinePlan, Label: "Premium — Quarterly", Amount: eur(999)},
			{Key: pricing.LineExtraConnections, Label: "2 extra connections", Amount: eur(200)},
			{Key: pricing.LineProxyProtection, Label: "Proxy protection", Amount: eur(250)},
		},
		Discount: &pricing.Discount{Code: "WELCOME", Type: "Percentage", Value: "10", Amount: eur(150)},
		Total:    eur(1299)}}
}

// sampleData is a made-up order and link, shaped as the shop's own.
func sampleData(kind mail.Kind, locale, base, store string) mail.Data {
	due := time.Date(2026, 12, 24, 15, 4, 5, 0, time.UTC)
	d := mail.Data{Store: store, OrderID: "ord_7QxS4mPz", Total: mail.FormatMoney(1299, "EUR", locale), Minutes: 15,
		Due: mail.FormatDate(due, locale), Suspend: mail.FormatDate(due.AddDate(0, 0, 3), locale)}
	page := func(route string, query url.Values) string { return shoplink.Page(base, locale, route, query) }
	receipt := strings.TrimRight(base, "/") + "/checkout/api/invoices/inv_7QxS4mPz.pdf?t=sample-token"
	switch kind {
	case mail.KindSigninLink:
		d.Link = page("", url.Values{"signin": {"sample-token"}})
	case mail.KindOrderReceived:
		d.Link = page("waiting", url.Values{"order": {d.OrderID}})
		d.Receipt, d.Invoice = receipt, "SC-2026-000042"
		d.Items = provision.Items(sampleOrder(locale))
	case mail.KindRenewalInvoice, mail.KindRenewalReminder, mail.KindRenewalDue, mail.KindRenewalOverdue, mail.KindLineChange:
		d.Link = paylink.URL(base, locale, "inv_7QxS4mPz", "sample-token")
		d.Items = provision.Items(sampleOrder(locale))
	case mail.KindRenewalPaid:
		d.Link = page("", url.Values{"view": {"services"}})
		d.Receipt, d.Invoice = receipt, "SC-2026-000043"
		d.Items = provision.Items(sampleOrder(locale))
	case mail.KindTrialEnding:
		d.Link = page("", url.Values{"view": {"services"}})
	case mail.KindRefund:
		d.Link, d.Invoice = strings.TrimRight(base, "/")+"/checkout/api/credit-notes/cn_7QxS4mPz.pdf?t=sample-token", "CN-2026-000007"
	case mail.KindPaymentRequest:
		d.Link = strings.TrimRight(base, "/") + "/checkout/api/sandbox/pay/inv_7QxS4mPz" // the gateway's payment link
	default:
		d.Link = page("success", url.Values{"order": {d.OrderID}})
	}
	return d
}
