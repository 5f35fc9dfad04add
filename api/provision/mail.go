package provision

import (
	"context"
	"net/url"

	"github.com/streamcart/streamcart/api/invoice"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/shoplink"
)

// Mail is the Notifier that mails the buyer about an order, in the locale the order was placed
// in, with links to the shop's own pages. It never carries credentials: the line-ready mail links
// to the page that shows them once the buyer is signed in.
type Mail struct {
	Outbox *mail.Outbox
	Shop   string // the shop's name
	Base   string // the shop's origin (configuration, never a request's)
	// Receipt is the link of a numbered invoice's PDF that opens without signing in; nil: none.
	Receipt func(invoiceID string) (string, error)
}

// OrderReceived mails the order's items and total, a link to its waiting page, and the invoice's PDF.
func (m Mail) OrderReceived(ctx context.Context, o order.Order) error {
	total := mail.FormatMoney(o.Invoice.Amount.Amount, o.Invoice.Amount.Currency, o.Locale)
	d := mail.Data{Total: total, Link: m.page(o, "waiting"), Items: Items(o)}
	if m.Receipt != nil && o.Invoice.Number != "" {
		link, err := m.Receipt(o.Invoice.ID)
		if err != nil {
			return err
		}
		d.Receipt, d.Invoice = link, o.Invoice.Number
	}
	return m.send(ctx, mail.KindOrderReceived, o, d)
}

// LinesReady mails a link to the order's success page, which shows the lines.
func (m Mail) LinesReady(ctx context.Context, o order.Order) error {
	return m.send(ctx, mail.KindLineReady, o, mail.Data{Link: m.page(o, "success")})
}

func (m Mail) send(ctx context.Context, kind mail.Kind, o order.Order, d mail.Data) error {
	d.Store, d.OrderID = m.Shop, o.ID
	r, err := mail.Render(kind, o.Locale, d)
	if err != nil {
		return err
	}
	return m.Outbox.Send(ctx, r.Message(o.Email))
}

// page is the storefront's route for the order in its locale: /checkout/de-de/success?order=ID.
func (m Mail) page(o order.Order, route string) string {
	return shoplink.Page(m.Base, o.Locale, route, url.Values{"order": {o.ID}})
}

// Items are what o bills, in its buyer's words and amounts (invoice.Items), with its net and tax
// when taxed (invoice.TaxItems), as a mail lists them.
func Items(o order.Order) []mail.Item {
	var out []mail.Item
	for _, l := range append(invoice.Items(o), invoice.TaxItems(o)...) {
		amount := mail.FormatMoney(l.Amount.Amount, l.Amount.Currency, o.Locale)
		if l.Amount.Amount < 0 {
			amount = "−" + mail.FormatMoney(-l.Amount.Amount, l.Amount.Currency, o.Locale)
		}
		out = append(out, mail.Item{Text: l.Description, Amount: amount})
	}
	return out
}

// PaymentRequested mails the buyer of an order released from the fraud check its payment link,
// the amount and until when the link works.
func (m Mail) PaymentRequested(ctx context.Context, o order.Order) error {
	return m.send(ctx, mail.KindPaymentRequest, o, mail.Data{Link: o.Invoice.PaymentURL,
		Total: mail.FormatMoney(o.Invoice.Amount.Amount, o.Invoice.Amount.Currency, o.Locale),
		Due:   mail.FormatDate(o.Invoice.Deadline, o.Locale)})
}
