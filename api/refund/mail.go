package refund

import (
	"context"

	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/order"
)

// Mail is the Notifier that mails the buyer every refund, full or partial, in the locale the
// order was placed in: the amount and a link to the refund's credit note.
type Mail struct {
	Outbox *mail.Outbox
	Shop   string // the shop's name
	// Link is the credit note's PDF link that opens without signing in.
	Link func(note CreditNote) (string, error)
}

// Refunded mails the refund r of o with its credit note.
func (m Mail) Refunded(ctx context.Context, o order.Order, r Refund, note CreditNote) error {
	link, err := m.Link(note)
	if err != nil {
		return err
	}
	msg, err := mail.Render(mail.KindRefund, o.Locale, mail.Data{Store: m.Shop, OrderID: o.ID, Link: link, Invoice: note.Number,
		Total: mail.FormatMoney(r.Amount.Amount, r.Amount.Currency, o.Locale)})
	if err != nil {
		return err
	}
	return m.Outbox.Send(ctx, msg.Message(o.Email))
}
