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
	return payLinkOf(a.payLinks, a.base, o)
}

// payLinkOf signs the pay link of o's invoice on base, in o's locale, good until its deadline.
func payLinkOf(links *paylink.Signer, base string, o order.Order) (string, error) {
	token, err := links.Sign(o.Invoice.ID, o.Invoice.Deadline)
	if err != nil {
		return "", err
	}
	return paylink.URL(base, storefrontPrefix(o.Locale), o.Invoice.ID, token), nil
}

// storefrontPrefix is the storefront's path prefix of locale ("de-de"); "" for one it has none for.
func storefrontPrefix(locale string) string {
	if slices.Contains(web.Prefixes, locale) {
		return locale
	}
	return ""
}
