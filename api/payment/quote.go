package payment

import (
	"context"
	"time"
)

// Quote is what a gateway that takes another currency than the invoice's asks the buyer to pay
// (Coinbase: USDC on a network), and the rate it was converted at. It is taken once per invoice,
// when its payment link is first made, and kept: a retried link and the webhook are checked
// against it, and the buyer is shown it before paying.
type Quote struct {
	InvoiceID string
	Gateway   string
	Amount    string // decimal text as the provider takes it ("17.27")
	Currency  string // "USDC"
	Network   string // "base"
	// Rate is units of Currency per unit of the invoice's currency, as a decimal ("1.08"); Basis
	// says where it came from (the catalog's USD rate over the invoice currency's).
	Rate    string
	Basis   string
	TakenAt time.Time
}

// Quoter is a gateway that asks for another currency than the invoice's and keeps the Quote of
// each invoice it makes a link for (Coinbase: USDC). The invoices of other gateways have none.
type Quoter interface {
	QuoteCurrency() string
}

// Quotes keeps each invoice's Quote.
type Quotes interface {
	// PutQuote stores q unless its invoice has one, and answers the stored one: the first quote
	// of an invoice is the one its link is made with, whatever a retry computes.
	PutQuote(ctx context.Context, q Quote) (Quote, error)
	// Quote reads an invoice's quote; ErrNotFound when none.
	Quote(ctx context.Context, invoiceID string) (Quote, error)
}
