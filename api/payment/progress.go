package payment

import (
	"context"
	"errors"
)

// progressScope is the Refs scope of invoices whose payment a provider has seen and is still
// confirming (KindProcessing): key the invoice id, ref the provider and its transaction.
const progressScope = "payment:processing"

// Progress keeps, per invoice, that its provider has seen the payment and is confirming it, so
// the buyer is told "payment seen, confirming" before it settles. Nothing settles on it; it
// means something only while the order is pending.
type Progress struct{ refs Refs }

// NewProgress keeps progress in refs.
func NewProgress(refs Refs) Progress { return Progress{refs: refs} }

// mark records that ev's provider has seen the payment of ev's invoice.
func (p Progress) mark(ctx context.Context, ev Event) error {
	if p.refs == nil {
		return nil
	}
	return p.refs.PutRef(ctx, progressScope, ev.InvoiceID, ev.Provider+":"+ev.TransactionID)
}

// Processing reports whether a provider has seen the payment of the invoice and is confirming it.
func (p Progress) Processing(ctx context.Context, invoiceID string) (bool, error) {
	if p.refs == nil {
		return false, nil
	}
	_, err := p.refs.Ref(ctx, progressScope, invoiceID)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}
