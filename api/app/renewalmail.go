package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/metrics"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/paylink"
	"github.com/streamcart/streamcart/api/renewal"
)

// reminderStore records a renewal or trial mail once per order and kind, with the message.
type reminderStore interface {
	QueueReminder(ctx context.Context, orderID, kind string, sentAt time.Time, m mail.Message, status string, send bool, at time.Time) (bool, error)
}

// renewalMail writes the renewal and trial mails (renewal.Mailer) in the order's locale (a
// renewal order keeps its first order's). A renewal mail links to the pay page of its invoice
// with a token signed for that invoice alone, good until the invoice's payment deadline, so it
// opens without signing in; the trial mail links to the storefront's services view, where the
// buyer converts the trial. Each is recorded once per order and kind with the message.
type renewalMail struct {
	outbox  *mail.Outbox
	store   reminderStore
	links   *paylink.Signer
	name    string // the shop's name
	base    string // the shop's origin (configuration, never a request's)
	metrics *metrics.Metrics
}

func (m renewalMail) Notify(ctx context.Context, n renewal.Notice, at time.Time) (bool, error) {
	o := n.Order
	prefix := storefrontPrefix(o.Locale)
	d := mail.Data{Store: m.name, OrderID: o.ID, Due: mail.FormatDate(n.Due, o.Locale)}
	if n.Kind == mail.KindTrialEnding {
		path := "/checkout/"
		if prefix != "" {
			path += prefix + "/"
		}
		d.Link = strings.TrimRight(m.base, "/") + path + "?view=services"
	} else {
		if o.Invoice.ID == "" || o.Invoice.Deadline.IsZero() {
			return false, fmt.Errorf("%s mail of %s: no invoice to pay", n.Kind, o.ID)
		}
		link, err := payLinkOf(m.links, m.base, o)
		if err != nil {
			return false, err
		}
		d.Link = link
		d.Total = mail.FormatMoney(o.Invoice.Amount.Amount, o.Invoice.Amount.Currency, o.Locale)
		d.Suspend = mail.FormatDate(n.Suspend, o.Locale)
	}
	r, err := mail.Render(n.Kind, o.Locale, d)
	if err != nil {
		return false, err
	}
	return m.outbox.SendOnce(ctx, r.Message(o.Email), func(ctx context.Context, msg mail.Message, status string, send bool, created time.Time) (bool, error) {
		queued, err := m.store.QueueReminder(ctx, o.ID, string(n.Kind), at, msg, status, send, created)
		if queued {
			m.metrics.Mail(map[bool]string{true: "queued", false: status}[send])
		}
		return queued, err
	})
}

// provisionNotices tells buyers how their orders go (the order mail) and, once a trial's lines
// are ready, schedules its trial-ending mail.
type provisionNotices struct {
	orderMail
	trials *renewal.Reminders
}

func (n provisionNotices) LinesReady(ctx context.Context, o order.Order) error {
	return errors.Join(n.orderMail.LinesReady(ctx, o), n.trials.TrialStarted(ctx, o))
}
