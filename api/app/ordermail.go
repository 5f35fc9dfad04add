package app

import (
	"context"
	"net/url"
	"slices"
	"strings"

	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/web"
)

// orderMail writes the buyer's mail about an order, in the locale the order was placed in, with
// links to the shop's own pages. It never carries credentials: the line-ready mail links to the
// page that shows them once the buyer is signed in.
type orderMail struct {
	outbox *mail.Outbox
	store  string // the shop's name
	base   string // the shop's origin (configuration, never a request's)
}

func (m orderMail) OrderReceived(ctx context.Context, o order.Order) error {
	total := mail.FormatMoney(o.Invoice.Amount.Amount, o.Invoice.Amount.Currency, o.Locale)
	return m.send(ctx, mail.KindOrderReceived, o, mail.Data{Total: total, Link: m.page(o, "waiting")})
}

func (m orderMail) LinesReady(ctx context.Context, o order.Order) error {
	return m.send(ctx, mail.KindLineReady, o, mail.Data{Link: m.page(o, "success")})
}

func (m orderMail) send(ctx context.Context, kind mail.Kind, o order.Order, d mail.Data) error {
	d.Store, d.OrderID = m.store, o.ID
	r, err := mail.Render(kind, o.Locale, d)
	if err != nil {
		return err
	}
	return m.outbox.Send(ctx, r.Message(o.Email))
}

// page is the storefront's route for the order in its locale: /checkout/de-de/success?order=ID.
func (m orderMail) page(o order.Order, route string) string {
	path := "/checkout/"
	if slices.Contains(web.Prefixes, o.Locale) {
		path += o.Locale + "/"
	}
	return strings.TrimRight(m.base, "/") + path + route + "?order=" + url.QueryEscape(o.ID)
}
