package renewal

import (
	"context"
	"errors"
	"fmt"

	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/order"
)

// ErrNoOpenRenewal means the service has no renewal invoice left to pay.
var ErrNoOpenRenewal = errors.New("no open renewal invoice")

// PayLinkMail mails a buyer the pay link of their line's open renewal invoice when an operator
// asks (the console's renewal link): the renewal invoice mail again, every time it is asked,
// unlike the reminders, which go once per kind.
type PayLinkMail struct {
	Renewals *Renewals
	Mail     Mail
	Config   Config
}

// Send mails the pay link of svc's open renewal invoice; it answers the renewal's order (whose
// email the mail went to and whose invoice it pays), or ErrNoOpenRenewal.
func (p PayLinkMail) Send(ctx context.Context, svc order.Service) (order.Order, error) {
	rn, o, open, err := p.Renewals.Open(ctx, svc.ID)
	if err != nil {
		return order.Order{}, fmt.Errorf("renewal link of %s: %w", svc.ID, err)
	}
	if !open {
		return order.Order{}, fmt.Errorf("renewal link of %s: %w", svc.ID, ErrNoOpenRenewal)
	}
	msg, err := p.Mail.message(ctx, Notice{Kind: mail.KindRenewalInvoice, Order: o, Service: svc, Due: rn.PeriodStart,
		Suspend: rn.PeriodStart.Add(p.Config.grace())})
	if err != nil {
		return order.Order{}, fmt.Errorf("renewal link of %s: %w", svc.ID, err)
	}
	if err := p.Mail.Outbox.Send(ctx, msg); err != nil {
		return order.Order{}, fmt.Errorf("renewal link of %s: %w", svc.ID, err)
	}
	return o, nil
}
