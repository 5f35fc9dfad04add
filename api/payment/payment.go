// Package payment holds the payment gateways. The sandbox gateway is the embedded default: its
// hosted page settles or fails an invoice, so a fresh shop takes a buyer to "paid" with no account.
package payment

import (
	"context"
	"strings"

	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
)

// SandboxPath is where the sandbox payment page lives, followed by the invoice id.
const SandboxPath = "/checkout/api/payments/sandbox/"

// Sandbox is the built-in test gateway.
type Sandbox struct {
	// PublicURL is the shop's public base URL; empty means links relative to the shop's origin.
	PublicURL string
}

// Module names the gateway as in the catalog's gateway list.
func (Sandbox) Module() string { return "sandbox" }

// Checkout returns the sandbox page of the order's invoice.
func (s Sandbox) Checkout(_ context.Context, o order.Order) (string, error) {
	return s.Link(o), nil
}

// Link is the sandbox page of the order's invoice: derived from the invoice id, so the order is
// stored with it (order.LocalLinker) and no second write records it.
func (s Sandbox) Link(o order.Order) string {
	return strings.TrimRight(s.PublicURL, "/") + SandboxPath + o.Invoice.ID
}

// Refund gives back a sandbox payment: no money moved, so the refund is only recorded.
func (Sandbox) Refund(_ context.Context, r order.Review) (string, error) {
	return "sbx_re_" + strings.TrimPrefix(r.ID, "pay_"), nil
}

var (
	_ order.LocalLinker = Sandbox{}
	_ order.Refunder    = Sandbox{}
)

// RefundAmount gives back part or all of a sandbox payment: recorded only, at once.
func (Sandbox) RefundAmount(_ context.Context, r order.Review, _ money.Money) (string, error) {
	return "sbx_re_" + strings.TrimPrefix(r.ID, "ref_"), nil
}
