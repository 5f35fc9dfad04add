package account

import (
	"context"
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
	c, created, err := s.store.EnsureClient(ctx, email, "")
	if err != nil {
		return Identified{}, fmt.Errorf("prove: %w", err)
	}
	if created {
		// Only reachable when the client vanished between the proof and this call.
		return Identified{}, ErrUnauthorized
	}
	now := s.now().UTC()
	sess := Session{ID: NewID("ses_"), ClientID: c.ID, Scope: authz.ScopeProven, CreatedAt: now, ExpiresAt: now.Add(SessionTTL)}
	if err := s.store.CreateSession(ctx, sess); err != nil {
		return Identified{}, fmt.Errorf("prove: %w", err)
	}
	claims := authz.Claims{ClientID: c.ID, SessionID: sess.ID, Scope: authz.ScopeProven, Email: c.Email, IssuedAt: now, ExpiresAt: sess.ExpiresAt}
	token, err := s.signer.Sign(claims)
	if err != nil {
		return Identified{}, fmt.Errorf("prove: %w", err)
	}
	return Identified{Token: token, Claims: claims}, nil
}
