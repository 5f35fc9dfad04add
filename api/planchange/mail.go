package planchange

import (
	"context"
	"fmt"

	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/paylink"
)

// Mail mails the buyer the pay link of a charge-now change's invoice (KindLineChange), in the
// order's locale, through the shop's outbox: the same signed pay link as a renewal invoice's,
// good until the invoice's deadline, opening the storefront's pay page without signing in.
type Mail struct {
	Outbox *mail.Outbox
	Links  *paylink.Signer
	Shop   string // the shop's name
	Base   string // the shop's origin (configuration, never a request's)
}

// ChangeInvoice mails o's pay link (Mailer).
func (m Mail) ChangeInvoice(ctx context.Context, o order.Order, c Change) error {
	if o.Invoice.ID == "" || o.Invoice.Deadline.IsZero() {
		return fmt.Errorf("change mail of %s: no invoice to pay", o.ID)
	}
	link, err := m.Links.Link(m.Base, o.Locale, o.Invoice.ID, o.Invoice.Deadline)
	if err != nil {
		return err
	}
	d := mail.Data{Store: m.Shop, OrderID: o.ID, Link: link, Due: mail.FormatDate(c.To.NextDueDate, o.Locale),
		Total: mail.FormatMoney(o.Invoice.Amount.Amount, o.Invoice.Amount.Currency, o.Locale)}
	r, err := mail.Render(mail.KindLineChange, o.Locale, d)
	if err != nil {
		return err
	}
	return m.Outbox.Send(ctx, r.Message(o.Email))
}
