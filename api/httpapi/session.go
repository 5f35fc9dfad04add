package httpapi

import (
	"context"
	"errors"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/signin"
	gensession "github.com/streamcart/streamcart/gen/session"
)

// Buyer-facing messages of the session service.
const (
	// msgInvalidEmail is the spec's exact message (§5).
	msgInvalidEmail    = "Please enter a Valid Email."
	msgBadCredentials  = "Wrong email or password."
	msgInvalidLink     = "This sign-in link is invalid, expired or already used. Please ask for a new one."
	msgTooManyAttempts = "Too many failed sign-in attempts. Please wait 15 minutes and try again."
	msgWeakPassword    = "Please choose a password of at least 8 characters."
	msgLongPassword    = "Please choose a password of at most 72 bytes (72 letters without accents)."
	msgNotProven       = "Please sign in with your password or an emailed link first."
	msgBadReturnURL    = "The return URL must be a path or a URL on this site."
	// msgPasswordsUnavailable: WHMCS mode, the seller's WHMCS (which checks passwords) is down.
	msgPasswordsElsewhere   = "This shop's passwords are kept by its billing system, so one cannot be set here and nothing was changed. To sign in, ask for an emailed sign-in link."
	msgPasswordsUnavailable = "Signing in with a password is unavailable right now. Please try again in a moment, or ask for an emailed sign-in link."

	// Order-placing messages shared by orders, upsells and reseller orders.
	msgUnknownGateway      = "This payment method is not available."
	msgGatewayUnavailable  = "The payment provider is unavailable. Please try again."
	msgUnknownCurrency     = "Unknown currency."
	msgIdempotencyMismatch = "This Idempotency-Key was already used for a different order."
)

type sessionService struct {
	authenticator
	accounts *account.Service
	signin   *signin.Service
}

// NewSession returns the session service.
func NewSession(accounts *account.Service, si *signin.Service) gensession.Service {
	return &sessionService{authenticator: authenticator{accounts: accounts, unauthorized: unauthorizedAs(gensession.MakeUnauthorized)}, accounts: accounts, signin: si}
}

// Create identifies a buyer by email, and proves it with a password when given (throttled).
func (s *sessionService) Create(ctx context.Context, p *gensession.CreatePayload) (*gensession.SessionResult, error) {
	password := ""
	if p.Password != nil {
		password = *p.Password
	}
	id, err := s.signin.Password(ctx, p.Email, password, clientIP(ctx).String())
	if err != nil {
		return nil, sessionError(err)
	}
	return sessionResult(id), nil
}

func sessionError(err error) error {
	switch {
	case errors.Is(err, account.ErrInvalidEmail):
		return gensession.MakeInvalidEmail(errors.New(msgInvalidEmail))
	case errors.Is(err, account.ErrInvalidCredentials), errors.Is(err, signin.ErrInvalidCredentials):
		return gensession.MakeInvalidCredentials(errors.New(msgBadCredentials))
	case errors.Is(err, signin.ErrTooManyAttempts):
		wait := signin.Window
		var t *signin.ThrottledError
		if errors.As(err, &t) {
			wait = t.RetryAfter
		}
		// Whole seconds, rounded up: retrying at Retry-After never comes too early.
		return &gensession.TooManyAttempts{Name: "too_many_attempts", Message: msgTooManyAttempts, RetryAfter: int((wait + time.Second - 1) / time.Second)}
	case errors.Is(err, signin.ErrInvalidLink):
		return gensession.MakeInvalidLink(errors.New(msgInvalidLink))
	case errors.Is(err, signin.ErrWeakPassword):
		return gensession.MakeWeakPassword(errors.New(msgWeakPassword))
	case errors.Is(err, account.ErrPasswordTooLong):
		return gensession.MakeBadRequest(errors.New(msgLongPassword))
	case errors.Is(err, signin.ErrNotProven):
		return gensession.MakeUnauthorized(errors.New(msgNotProven))
	case errors.Is(err, signin.ErrBadReturnURL):
		return gensession.MakeBadRequest(errors.New(msgBadReturnURL))
	case errors.Is(err, signin.ErrPasswordsElsewhere):
		return gensession.MakeConflict(errors.New(msgPasswordsElsewhere))
	case errors.Is(err, signin.ErrPasswordsUnavailable):
		return gensession.MakeUnavailable(errors.New(msgPasswordsUnavailable))
	}
	return err
}

func sessionResult(id account.Identified) *gensession.SessionResult {
	return &gensession.SessionResult{
		Token: id.Token, UserID: id.UserID, Email: id.Claims.Email,
		Scope: string(id.Claims.Scope), ExpiresAt: id.Claims.ExpiresAt.Format(time.RFC3339),
	}
}

// Delete signs the session out.
func (s *sessionService) Delete(ctx context.Context, _ *gensession.DeletePayload) error {
	return s.accounts.SignOut(ctx, claimsFrom(ctx))
}

// RequestLink emails a sign-in link; the answer is the same whether or not the email is known.
func (s *sessionService) RequestLink(ctx context.Context, p *gensession.RequestLinkPayload) error {
	r := signin.LinkRequest{Email: p.Email, IP: clientIP(ctx).String(), ReturnOrigins: storefrontOrigins(ctx), Locale: buyerLocale(ctx)}
	if p.ReturnURL != nil {
		r.ReturnURL = *p.ReturnURL
	}
	return sessionError(s.signin.RequestLink(ctx, r))
}

// RedeemLink trades a link's token for a proven session.
func (s *sessionService) RedeemLink(ctx context.Context, p *gensession.RedeemLinkPayload) (*gensession.SessionResult, error) {
	id, err := s.signin.RedeemLink(ctx, p.Token)
	if err != nil {
		return nil, sessionError(err)
	}
	return sessionResult(id), nil
}

// SetPassword sets the client's password (proven sessions only) and signs its other sessions out.
func (s *sessionService) SetPassword(ctx context.Context, p *gensession.SetPasswordPayload) error {
	return sessionError(s.signin.SetPassword(ctx, claimsFrom(ctx), p.Password))
}
