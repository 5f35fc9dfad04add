package account

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/streamcart/streamcart/api/authz"
)

// Prove opens a proven session for the existing client with email: the caller has checked the
// proof (a sign-in link, a password it verified itself). ErrUnauthorized when no such client.
func (s *Service) Prove(ctx context.Context, email string) (Identified, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	if !ValidEmail(email) {
		return Identified{}, ErrInvalidEmail
	}
	c, err := s.store.ClientByEmail(ctx, email)
	if errors.Is(err, ErrNotFound) {
		// Only reachable when the client vanished between the proof and this call.
		return Identified{}, ErrUnauthorized
	}
	if err != nil {
		return Identified{}, fmt.Errorf("prove: %w", err)
	}
	return s.open(ctx, c, authz.ScopeProven)
}

// ProveClient opens a proven session for email, making its client on first sight: the caller
// checked a password with the system that keeps the buyer's (the seller's WHMCS).
func (s *Service) ProveClient(ctx context.Context, email string) (Identified, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	if !ValidEmail(email) {
		return Identified{}, ErrInvalidEmail
	}
	c, _, err := s.store.EnsureClient(ctx, email)
	if err != nil {
		return Identified{}, fmt.Errorf("prove: %w", err)
	}
	return s.open(ctx, c, authz.ScopeProven)
}
