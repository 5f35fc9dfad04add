package renewal

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/paylink"
	"github.com/streamcart/streamcart/api/provision"
	"github.com/streamcart/streamcart/api/shoplink"
)

// ErrNotRenewal means a pay link was asked for an invoice that is no renewal's.
var ErrNotRenewal = errors.New("not a renewal invoice")

// MailStore is what Mail reads and records.
type MailStore interface {
	// QueueReminder records a renewal or trial mail once per order and kind, with the message.
	QueueReminder(ctx context.Context, orderID, kind string, sentAt time.Time, m mail.Message, status string, send bool, at time.Time) (bool, error)
	InvoiceOrder(ctx context.Context, invoiceID string) (order.Order, error)
}

// Mail writes the renewal and trial mails (a Mailer) in the order's locale (a renewal order keeps
// its first order's). A renewal mail links to the pay page of its invoice with a token signed for
// that invoice alone, good until the invoice's payment deadline, so it opens without signing in;
// the trial mail links to the storefront's services view, where the buyer converts the trial.
// Each is recorded once per order and kind with the message.
type Mail struct {
	Outbox *mail.Outbox
	Store  MailStore
	Links  *paylink.Signer
	Shop   string // the shop's name
	Base   string // the shop's origin (configuration, never a request's)
	// Receipt is the link of a numbered invoice's PDF that opens without signing in (the
	// renewal-paid mail's); nil: none.
	Receipt func(invoiceID string) (string, error)
	// Attempts lists the off-session charges of a renewal order (ChargeStore.Charges), for the
	// mails of a line that renews with a saved card to say when one did not pay; nil: none is
	// known.
	Attempts func(ctx context.Context, orderID string) ([]Attempt, error)
}

// Notify queues n's mail once per order and kind (Mailer).
func (m Mail) Notify(ctx context.Context, n Notice, at time.Time) (bool, error) {
	msg, err := m.message(ctx, n)
	if err != nil {
		return false, err
	}
	return m.Outbox.SendOnce(ctx, msg, func(ctx context.Context, msg mail.Message, status string, send bool, created time.Time) (bool, error) {
		return m.Store.QueueReminder(ctx, n.Order.ID, string(n.Kind), at, msg, status, send, created)
	})
}

// card is how the saved card stands to pay n's renewal: a line that renews with a saved card
// has it charged on the due date (mail.CardSaved) unless a charge of this renewal already did
// not pay (mail.CardDeclined: pay by the link); "" for a line paid by its link, or another mail.
func (m Mail) card(ctx context.Context, n Notice) (mail.CardState, error) {
	s := n.Service
	switch n.Kind {
	case mail.KindRenewalInvoice, mail.KindRenewalReminder, mail.KindRenewalDue, mail.KindRenewalOverdue:
	default:
		return "", nil
	}
	if !s.SavedCard || !s.AutoRenew || s.Trial {
		return "", nil
	}
	if m.Attempts != nil {
		attempts, err := m.Attempts(ctx, n.Order.ID)
		if err != nil {
			return "", err
		}
		if len(attempts) > 0 {
			switch attempts[len(attempts)-1].Outcome {
			case ChargeDeclined, ChargeAuthRequired, ChargeRefused:
				return mail.CardDeclined, nil
			}
		}
	}
	return mail.CardSaved, nil
}

// message writes n's mail to its order's buyer, in the order's locale.
func (m Mail) message(ctx context.Context, n Notice) (mail.Message, error) {
	o := n.Order
	d := mail.Data{Store: m.Shop, OrderID: o.ID, Due: mail.FormatDate(n.Due, o.Locale)}
	switch n.Kind {
	case mail.KindTrialEnding:
		d.Link = shoplink.Page(m.Base, o.Locale, "", url.Values{"view": {"services"}})
	case mail.KindRenewalPaid:
		// What was paid, until when the line now runs, the invoice's PDF and the services view.
		d.Link = shoplink.Page(m.Base, o.Locale, "", url.Values{"view": {"services"}})
		d.Total = mail.FormatMoney(o.Invoice.Amount.Amount, o.Invoice.Amount.Currency, o.Locale)
		d.Items = provision.Items(o)
		if m.Receipt != nil && o.Invoice.Number != "" {
			link, err := m.Receipt(o.Invoice.ID)
			if err != nil {
				return mail.Message{}, err
			}
			d.Receipt, d.Invoice = link, o.Invoice.Number
		}
	default:
		if o.Invoice.ID == "" || o.Invoice.Deadline.IsZero() {
			return mail.Message{}, fmt.Errorf("%s mail of %s: no invoice to pay", n.Kind, o.ID)
		}
		link, err := m.Links.Link(m.Base, o.Locale, o.Invoice.ID, o.Invoice.Deadline)
		if err != nil {
			return mail.Message{}, err
		}
		d.Link = link
		d.Total = mail.FormatMoney(o.Invoice.Amount.Amount, o.Invoice.Amount.Currency, o.Locale)
		d.Suspend = mail.FormatDate(n.Suspend, o.Locale)
		d.Items = provision.Items(o)
		if d.Card, err = m.card(ctx, n); err != nil {
			return mail.Message{}, fmt.Errorf("%s mail of %s: %w", n.Kind, o.ID, err)
		}
	}
	r, err := mail.Render(n.Kind, o.Locale, d)
	if err != nil {
		return mail.Message{}, err
	}
	return r.Message(o.Email), nil
}

// PayLink is the pay link of a renewal invoice (/checkout/[locale/]renew?invoice=…&t=…), in the
// order's locale and good until the invoice's deadline: the page the renewal mails open.
func (m Mail) PayLink(ctx context.Context, invoiceID string) (string, error) {
	o, err := m.Store.InvoiceOrder(ctx, invoiceID)
	if err != nil {
		return "", fmt.Errorf("pay link of %s: %w", invoiceID, err)
	}
	if o.Kind != order.KindRenewal {
		return "", fmt.Errorf("pay link of %s: %w", invoiceID, ErrNotRenewal)
	}
	return m.Links.Link(m.Base, o.Locale, o.Invoice.ID, o.Invoice.Deadline)
}
