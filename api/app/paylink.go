package app

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/paylink"
	"github.com/streamcart/streamcart/api/web"
)

// ErrNotRenewal means a pay link was asked for an invoice that is no renewal's.
var ErrNotRenewal = errors.New("not a renewal invoice")

// PayLink is the pay link of a renewal invoice (/checkout/[locale/]renew?invoice=…&t=…), in the
// order's locale and good until the invoice's deadline: the page the reminder mails open.
func (a *App) PayLink(ctx context.Context, invoiceID string) (string, error) {
	o, err := a.store.InvoiceOrder(ctx, invoiceID)
	if err != nil {
		return "", fmt.Errorf("pay link of %s: %w", invoiceID, err)
	}
	if o.Kind != order.KindRenewal {
		return "", fmt.Errorf("pay link of %s: %w", invoiceID, ErrNotRenewal)
	}
	token, err := a.payLinks.Sign(invoiceID, o.Invoice.Deadline)
	if err != nil {
		return "", err
	}
	prefix := ""
	if slices.Contains(web.Prefixes, o.Locale) {
		prefix = o.Locale
	}
	return paylink.URL(a.base, prefix, invoiceID, token), nil
}
