package httpapi

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/streamcart/streamcart/api/account"
	gensession "github.com/streamcart/streamcart/gen/session"
)

// msgInvalidEmail is the spec's exact message (§5).
const msgInvalidEmail = "Please enter a Valid Email."

type sessionService struct {
	authenticator
	accounts *account.Service
}

// NewSession returns the session service.
func NewSession(accounts *account.Service) gensession.Service {
	return &sessionService{authenticator: authenticator{accounts: accounts, unauthorized: unauthorizedAs(gensession.MakeUnauthorized)}, accounts: accounts}
}

// Create identifies a buyer by email, and proves it with a password when given.
func (s *sessionService) Create(ctx context.Context, p *gensession.CreatePayload) (*gensession.SessionResult, error) {
	password := ""
	if p.Password != nil {
		password = *p.Password
	}
	id, err := s.accounts.Identify(ctx, p.Email, password)
	switch {
	case errors.Is(err, account.ErrInvalidEmail):
		return nil, gensession.MakeInvalidEmail(errors.New(msgInvalidEmail))
	case errors.Is(err, account.ErrInvalidCredentials):
		return nil, gensession.MakeInvalidCredentials(errors.New("Wrong email or password."))
	case err != nil:
		return nil, err
	}
	return &gensession.SessionResult{
		Token: id.Token, UserID: strconv.FormatInt(id.Claims.ClientID, 10), Email: id.Claims.Email,
		Scope: string(id.Claims.Scope), ExpiresAt: id.Claims.ExpiresAt.Format(time.RFC3339),
	}, nil
}

// Delete signs the session out.
func (s *sessionService) Delete(ctx context.Context, _ *gensession.DeletePayload) error {
	return s.accounts.SignOut(ctx, claimsFrom(ctx))
}
