package reseller

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Account is a reseller's credit account.
type Account struct {
	Account   string // our name for it: the client's email
	Credits   int
	CreatedAt time.Time
}

// ErrInvalidCredit means a credit lacks its ref or account, or grants no credits.
var ErrInvalidCredit = errors.New("reseller: invalid credit")

// LedgerStore keeps reseller credit accounts.
type LedgerStore interface {
	// CreditReseller adds credits to account once per ref, creating the account (with
	// passwordHash) when absent; see Ledger.Credit.
	CreditReseller(ctx context.Context, ref, account, passwordHash string, credits int, at time.Time) (Account, error)
	// ResellerAccount reads an account; ErrNotFound when none.
	ResellerAccount(ctx context.Context, account string) (Account, error)
}

// Ledger keeps reseller credit accounts in Streamcart's own database, whatever panel serves the
// lines: neither Xtream flavour has a reseller API we drive.
type Ledger struct {
	store LedgerStore
	now   func() time.Time
}

// NewLedger returns the credit ledger kept in s.
func NewLedger(s LedgerStore) *Ledger { return &Ledger{store: s, now: time.Now} }

// Credit adds credits to account, creating the account when absent, with passwordHash (bcrypt)
// as its password; an existing account keeps its own. It is idempotent by ref (our order id):
// crediting the same ref again changes nothing and returns the account as it is.
func (l *Ledger) Credit(ctx context.Context, ref, account, passwordHash string, credits int) (Account, error) {
	if ref == "" || account == "" || credits <= 0 {
		return Account{}, fmt.Errorf("credit reseller %q: %w: ref, account and positive credits required", account, ErrInvalidCredit)
	}
	a, err := l.store.CreditReseller(ctx, ref, account, passwordHash, credits, l.now().UTC())
	if err != nil {
		return Account{}, fmt.Errorf("credit reseller %s: %w", account, err)
	}
	return a, nil
}

// Account reads a reseller account; ErrNotFound when none.
func (l *Ledger) Account(ctx context.Context, account string) (Account, error) {
	a, err := l.store.ResellerAccount(ctx, account)
	if err != nil {
		return Account{}, fmt.Errorf("reseller %s: %w", account, err)
	}
	return a, nil
}
