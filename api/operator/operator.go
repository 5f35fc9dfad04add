// Package operator keeps the seller's console operators: accounts of their own (never clients),
// set up through a one-time link with a password and a TOTP authenticator, signed in with both
// into a 12-hour cookie session whose CSRF token guards every change. Roles decide, through the
// ladon policies of package authz, what each operator may do.
package operator

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	"golang.org/x/crypto/bcrypt"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/clock"
)

// Role is what an operator may do (authz.OperatorAllowed).
type Role string

const (
	RoleOwner   Role = "owner"
	RoleSupport Role = "support"
	RoleViewer  Role = "viewer"
)

// Roles are the roles, most powerful first.
var Roles = []Role{RoleOwner, RoleSupport, RoleViewer}

// Status is an operator's place: pending until set up, then active until disabled.
type Status string

const (
	StatusPending  Status = "pending"
	StatusActive   Status = "active"
	StatusDisabled Status = "disabled"
)

// Limits.
const (
	SetupTTL   = 24 * time.Hour
	SessionTTL = 12 * time.Hour
	// MinPasswordLen is the shortest operator password; MaxPasswordBytes is what bcrypt reads.
	MinPasswordLen   = 12
	MaxPasswordBytes = 72
	// SetupPath is the console page a setup link opens.
	SetupPath = "/checkout/admin/setup"
)

// totpOpts is RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30 seconds.
var totpOpts = totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

var (
	ErrNotFound      = errors.New("operator: not found")
	ErrExists        = errors.New("operator: email already an operator")
	ErrInvalidEmail  = errors.New("operator: invalid email")
	ErrInvalidRole   = errors.New("operator: role must be owner, support or viewer")
	ErrInvalidSetup  = errors.New("operator: setup link unknown, used or expired")
	ErrSetupNotBegun = errors.New("operator: set a password before confirming the authenticator")
	ErrWeakPassword  = errors.New("operator: password shorter than 12 characters")
	ErrLongPassword  = errors.New("operator: password longer than 72 bytes")
	ErrInvalidOTP    = errors.New("operator: wrong authenticator code")
	// ErrInvalidCredentials answers every refused sign-in alike: unknown email, not set up,
	// disabled, wrong password, wrong or replayed code.
	ErrInvalidCredentials = errors.New("operator: invalid credentials")
	ErrTooManyAttempts    = errors.New("operator: too many attempts")
	ErrUnauthorized       = errors.New("operator: no valid session")
)

// ThrottledError is ErrTooManyAttempts with the wait until the operator is unlocked.
type ThrottledError struct{ RetryAfter time.Duration }

func (e *ThrottledError) Error() string        { return ErrTooManyAttempts.Error() }
func (e *ThrottledError) Is(target error) bool { return target == ErrTooManyAttempts }

// Operator is a console account.
type Operator struct {
	ID           int64
	Email        string
	Role         Role
	Status       Status
	PasswordHash string
	TOTPSecret   string
	TOTPStep     int64
	CreatedAt    time.Time
	DisabledAt   time.Time
}

// Session is one console sign-in; ID is the hash of the cookie's token.
type Session struct {
	ID         string
	OperatorID int64
	CreatedAt  time.Time
	ExpiresAt  time.Time
	RevokedAt  time.Time
}

// Store is what operators persist.
type Store interface {
	// InsertOperator adds a pending operator and its setup token's hash; ErrExists for a taken email.
	InsertOperator(ctx context.Context, o Operator, tokenHash string, expires time.Time) (Operator, error)
	OperatorByEmail(ctx context.Context, email string) (Operator, error)
	ListOperators(ctx context.Context) ([]Operator, error)
	// DisableOperator disables an operator and revokes its sessions; ErrNotFound when none.
	DisableOperator(ctx context.Context, email string, at time.Time) (Operator, error)
	// SetupOperator reads the operator of an unused, unexpired setup token; ErrInvalidSetup otherwise.
	SetupOperator(ctx context.Context, tokenHash string, now time.Time) (Operator, error)
	// SetOperatorCredentials keeps a pending operator's password hash and TOTP secret.
	SetOperatorCredentials(ctx context.Context, id int64, passwordHash, totpSecret string) error
	// CompleteSetup marks the token used and the operator active with step as its last code, in
	// one transaction, only while the token is unused and unexpired; ErrInvalidSetup otherwise.
	CompleteSetup(ctx context.Context, tokenHash string, step int64, now time.Time) error
	// UseTOTPStep records step as the operator's last accepted code unless one as late was
	// accepted already (then false): a code works once.
	UseTOTPStep(ctx context.Context, id, step int64) (bool, error)
	// ReplaceTOTPSecret stores secret as the operator's TOTP secret while it is still old; it
	// reports whether it did.
	ReplaceTOTPSecret(ctx context.Context, id int64, old, secret string) (bool, error)
	// ResetOperator puts an operator back to pending with no password or TOTP secret, ends its
	// sessions, voids its unused setup tokens and adds tokenHash, in one transaction;
	// ErrNotFound when none.
	ResetOperator(ctx context.Context, email, tokenHash string, now, expires time.Time) (Operator, error)
	// ReserveAttempt records an attempt unless max are recorded since since (then ok is false and
	// oldest is the first of them), atomically for every replica.
	ReserveAttempt(ctx context.Context, scope, key string, at, since time.Time, max int) (id int64, oldest time.Time, ok bool, err error)
	RemoveAttempt(ctx context.Context, id int64) error
	AddAttempt(ctx context.Context, scope, key string, at time.Time) error
	// AttemptsSince counts the attempts of scope and key since since, with the latest of them.
	AttemptsSince(ctx context.Context, scope, key string, since time.Time) (int, time.Time, error)
	CreateOperatorSession(ctx context.Context, s Session) error
	// OperatorSession reads a session with its operator; ErrNotFound when none.
	OperatorSession(ctx context.Context, id string) (Session, Operator, error)
	RevokeOperatorSession(ctx context.Context, id string, at time.Time) error
}

// Operators sets operators up and signs them in.
type Operators struct {
	store  Store
	issuer string
	log    *slog.Logger
	now    func() time.Time
	cost   int
	sealer *sealer // nil: TOTP secrets stored as given (the CLI, which never sets one up)
	guard  Guard
}

// Config is how the operators service works, besides its store and clock.
type Config struct {
	// Issuer names the shop in authenticator apps; "": Streamcart.
	Issuer string
	// PasswordCost is the bcrypt cost of passwords; 0: bcrypt.DefaultCost (tests lower it).
	PasswordCost int
	// SecretKey, when set, seals the TOTP secrets stored with a key derived from it: the shop's
	// secret key (the one signing session tokens, the same on every replica). nil: secrets are
	// stored as given (the CLI, which never sets one up).
	SecretKey []byte
	// Guard is the sign-in guard's clock, wait and alert mailer, on real time.
	Guard Guard
}

// New returns the operators service; now is security time (setup and session expiry, TOTP
// time): real time, never the test clock's (nil: time.Now). The sign-in guard has its own
// (Config.Guard).
func New(store Store, cfg Config, log *slog.Logger, now func() time.Time) *Operators {
	if cfg.Issuer == "" {
		cfg.Issuer = "Streamcart"
	}
	if cfg.PasswordCost == 0 {
		cfg.PasswordCost = bcrypt.DefaultCost
	}
	s := &Operators{store: store, issuer: cfg.Issuer, log: log, now: clock.OrReal(now), cost: cfg.PasswordCost, guard: cfg.Guard.orDefaults()}
	if cfg.SecretKey != nil {
		s.sealer = newSealer(cfg.SecretKey)
	}
	return s
}

// SealClear seals every TOTP secret still stored in the clear (kept before sealing existed); it
// answers how many it sealed. A secret changed meanwhile is left to its new value.
func (s *Operators) SealClear(ctx context.Context) (int, error) {
	if s.sealer == nil {
		return 0, nil
	}
	list, err := s.store.ListOperators(ctx)
	if err != nil {
		return 0, fmt.Errorf("seal totp secrets: %w", err)
	}
	n := 0
	for _, o := range list {
		if o.TOTPSecret == "" || strings.HasPrefix(o.TOTPSecret, sealedPrefix) {
			continue
		}
		done, err := s.store.ReplaceTOTPSecret(ctx, o.ID, o.TOTPSecret, s.sealer.seal(o.ID, o.TOTPSecret))
		if err != nil {
			return n, fmt.Errorf("seal totp secrets: %w", err)
		}
		if done {
			n++
		}
	}
	return n, nil
}

// totpSecret opens the operator's stored TOTP secret.
func (s *Operators) totpSecret(o Operator) (string, error) {
	if !strings.HasPrefix(o.TOTPSecret, sealedPrefix) {
		return o.TOTPSecret, nil
	}
	if s.sealer == nil {
		return "", ErrSealedSecret
	}
	return s.sealer.open(o.ID, o.TOTPSecret)
}

var emailRule = regexp.MustCompile(`^\S+@\S+\.\S+$`)

// ParseRole checks a role name.
func ParseRole(r string) (Role, error) {
	if !slices.Contains(Roles, Role(r)) {
		return "", ErrInvalidRole
	}
	return Role(r), nil
}

// Invitation is a new operator and its one-time setup token.
type Invitation struct {
	Operator  Operator
	Token     string
	ExpiresAt time.Time
}

// Link is the setup page of the invitation on the shop at base ("" for a path).
func (i Invitation) Link(base string) string {
	return strings.TrimRight(base, "/") + SetupPath + "?token=" + i.Token
}

// Add creates a pending operator and its setup token (SetupTTL).
func (s *Operators) Add(ctx context.Context, email string, role Role) (Invitation, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	// The buyers' rule: an operator's address is shown in the console and the audit log too.
	if !account.ValidEmail(email) || len(email) > 254 {
		return Invitation{}, ErrInvalidEmail
	}
	if _, err := ParseRole(string(role)); err != nil {
		return Invitation{}, err
	}
	token := randomToken()
	now := s.now().UTC()
	exp := now.Add(SetupTTL)
	o, err := s.store.InsertOperator(ctx, Operator{Email: email, Role: role, Status: StatusPending, CreatedAt: now}, hashToken(token), exp)
	if err != nil {
		return Invitation{}, fmt.Errorf("add operator: %w", err)
	}
	return Invitation{Operator: o, Token: token, ExpiresAt: exp}, nil
}

// Reset gives an operator a new setup link (SetupTTL), as for a new one: until it is used the
// operator cannot sign in, its password and authenticator are forgotten and its sessions end.
// This is the way back for an operator who lost the authenticator, or whose TOTP secret was
// sealed under a secret key the shop no longer has (ErrSealedSecret). A disabled operator is
// let back in this way too.
func (s *Operators) Reset(ctx context.Context, email string) (Invitation, error) {
	token := randomToken()
	now := s.now().UTC()
	exp := now.Add(SetupTTL)
	o, err := s.store.ResetOperator(ctx, strings.ToLower(strings.TrimSpace(email)), hashToken(token), now, exp)
	if err != nil {
		return Invitation{}, fmt.Errorf("reset operator: %w", err)
	}
	return Invitation{Operator: o, Token: token, ExpiresAt: exp}, nil
}

// List returns every operator.
func (s *Operators) List(ctx context.Context) ([]Operator, error) { return s.store.ListOperators(ctx) }

// Disable stops an operator from signing in and ends its sessions.
func (s *Operators) Disable(ctx context.Context, email string) (Operator, error) {
	return s.store.DisableOperator(ctx, strings.ToLower(strings.TrimSpace(email)), s.now().UTC())
}

// Enrolment is what the authenticator app is given.
type Enrolment struct {
	Secret string // base32
	URL    string // otpauth://totp/…
}

// Setup sets the password of the setup token's operator and gives it a fresh TOTP secret; the
// operator becomes active only once Confirm sees a code of that secret. Calling it again replaces
// both (an authenticator scanned wrong).
func (s *Operators) Setup(ctx context.Context, token, password string) (Enrolment, error) {
	if err := checkPassword(password); err != nil {
		return Enrolment{}, err
	}
	o, err := s.store.SetupOperator(ctx, hashToken(token), s.now().UTC())
	if err != nil {
		return Enrolment{}, err
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: s.issuer, AccountName: o.Email, Period: totpOpts.Period,
		Digits: totpOpts.Digits, Algorithm: totpOpts.Algorithm})
	if err != nil {
		return Enrolment{}, fmt.Errorf("setup: %w", err)
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), s.cost)
	if err != nil {
		return Enrolment{}, fmt.Errorf("setup: %w", err)
	}
	stored := key.Secret()
	if s.sealer != nil {
		stored = s.sealer.seal(o.ID, stored)
	}
	if err := s.store.SetOperatorCredentials(ctx, o.ID, string(h), stored); err != nil {
		return Enrolment{}, fmt.Errorf("setup: %w", err)
	}
	return Enrolment{Secret: key.Secret(), URL: key.URL()}, nil
}

// Confirm proves the authenticator with one of its codes and activates the operator; the
// token is used up.
func (s *Operators) Confirm(ctx context.Context, token, code string) error {
	now := s.now().UTC()
	hash := hashToken(token)
	o, err := s.store.SetupOperator(ctx, hash, now)
	if err != nil {
		return err
	}
	if o.TOTPSecret == "" || o.PasswordHash == "" {
		return ErrSetupNotBegun
	}
	secret, err := s.totpSecret(o)
	if err != nil {
		// Set up under another secret key (a replica configured apart): Setup again.
		s.log.Error("operator setup: TOTP secret cannot be opened", "operator", o.Email, "err", err)
		return ErrInvalidOTP
	}
	step, ok := matchCode(secret, code, now)
	if !ok {
		return ErrInvalidOTP
	}
	return s.store.CompleteSetup(ctx, hash, step, now)
}

// Principal is the operator a session names.
type Principal struct {
	OperatorID int64
	Email      string
	Role       Role
	SessionID  string
	ExpiresAt  time.Time
}

// SignedIn is an opened session: Token goes in the cookie, CSRF in every change's header.
type SignedIn struct {
	Principal Principal
	Token     string
	CSRF      string
	ExpiresAt time.Time
}

// dummyHashes keeps the time of a sign-in for an unknown email close to a known one's: a hash
// at the cost of the service's passwords (dummyHash), made at its first use rather than when the
// package loads (every binary and test binary importing it paid a hash at the default cost, about
// a second under the race detector, and a lowered cost still compared against it).
var dummyHashes struct {
	sync.Mutex
	byCost map[int][]byte
}

// dummyHash is the hash an unknown email's password is compared with, at cost.
func dummyHash(cost int) []byte {
	dummyHashes.Lock()
	defer dummyHashes.Unlock()
	if h, ok := dummyHashes.byCost[cost]; ok {
		return h
	}
	h, err := bcrypt.GenerateFromPassword([]byte("streamcart operator timing"), cost)
	if err != nil { // only for a cost out of bcrypt's range, which New's hashes refuse as well
		return nil
	}
	if dummyHashes.byCost == nil {
		dummyHashes.byCost = map[int][]byte{}
	}
	dummyHashes.byCost[cost] = h
	return h
}

// SignIn opens a session with email, password and a TOTP code, under the guard (guard.go): an
// address over its limit is refused at once (429), and an account's check waits out the delay
// its failures earned. A refused sign-in is a *Refusal saying why, for the audit log.
func (s *Operators) SignIn(ctx context.Context, email, password, code, ip string) (SignedIn, error) {
	key := strings.ToLower(strings.TrimSpace(email))
	// The code is checked at the time it was sent, whatever the delay before the check.
	now := s.now().UTC()
	place, err := s.reserveAddress(ctx, key, ip)
	if err != nil {
		return SignedIn{}, err
	}
	if !validEmail(key) {
		return SignedIn{}, s.refused(ctx, key, ip, ReasonUnknownEmail, ErrInvalidCredentials, Operator{}, false)
	}
	if len(password) > MaxPasswordBytes {
		return SignedIn{}, s.refused(ctx, key, ip, ReasonBadPassword, ErrLongPassword, Operator{}, true)
	}
	if err := s.waitDelay(ctx, key); err != nil {
		return SignedIn{}, err
	}
	o, reason, err := s.check(ctx, key, password, code, now)
	if reason != "" {
		return SignedIn{}, s.refused(ctx, key, ip, reason, ErrInvalidCredentials, o, true)
	}
	if err != nil {
		return SignedIn{}, err
	}
	if place != 0 {
		if err := s.store.RemoveAttempt(ctx, place); err != nil {
			s.log.Error("operator sign-in attempt not given back", "err", err)
		}
	}
	token := randomToken()
	sess := Session{ID: hashToken(token), OperatorID: o.ID, CreatedAt: now, ExpiresAt: now.Add(SessionTTL)}
	if err := s.store.CreateOperatorSession(ctx, sess); err != nil {
		return SignedIn{}, fmt.Errorf("sign in: %w", err)
	}
	return SignedIn{Principal: Principal{OperatorID: o.ID, Email: o.Email, Role: o.Role, SessionID: sess.ID, ExpiresAt: sess.ExpiresAt},
		Token: token, CSRF: CSRFToken(token), ExpiresAt: sess.ExpiresAt}, nil
}

// check checks the credentials; a refusal is its reason (the operator read, when one was).
func (s *Operators) check(ctx context.Context, email, password, code string, now time.Time) (Operator, string, error) {
	o, err := s.store.OperatorByEmail(ctx, email)
	if errors.Is(err, ErrNotFound) || (err == nil && o.PasswordHash == "") {
		bcrypt.CompareHashAndPassword(dummyHash(s.cost), []byte(password))
		if err == nil {
			return o, ReasonNotSetUp, nil
		}
		return Operator{}, ReasonUnknownEmail, nil
	}
	if err != nil {
		return Operator{}, "", fmt.Errorf("sign in: %w", err)
	}
	if bcrypt.CompareHashAndPassword([]byte(o.PasswordHash), []byte(password)) != nil {
		return o, ReasonBadPassword, nil
	}
	if o.Status == StatusPending {
		return o, ReasonNotSetUp, nil
	}
	if o.Status != StatusActive {
		return o, ReasonDisabled, nil
	}
	secret, err := s.totpSecret(o)
	if err != nil {
		s.log.Error("operator sign-in: TOTP secret cannot be opened with this secret key: give a new setup link with streamcart operator reset",
			"operator", o.Email, "err", err)
		return o, ReasonSealedSecret, nil
	}
	step, ok := matchCode(secret, code, now)
	if !ok {
		return o, ReasonBadCode, nil
	}
	fresh, err := s.store.UseTOTPStep(ctx, o.ID, step)
	if err != nil {
		return Operator{}, "", fmt.Errorf("sign in: %w", err)
	}
	if !fresh {
		return o, ReasonReplayedCode, nil
	}
	return o, "", nil
}

// Authenticate reads the session of a cookie's token: unexpired, not signed out, its operator active.
func (s *Operators) Authenticate(ctx context.Context, token string) (Principal, error) {
	if token == "" || len(token) > 128 {
		return Principal{}, ErrUnauthorized
	}
	sess, o, err := s.store.OperatorSession(ctx, hashToken(token))
	if errors.Is(err, ErrNotFound) {
		return Principal{}, ErrUnauthorized
	}
	if err != nil {
		return Principal{}, fmt.Errorf("authenticate operator: %w", err)
	}
	if !sess.RevokedAt.IsZero() || !s.now().Before(sess.ExpiresAt) || o.Status != StatusActive {
		return Principal{}, ErrUnauthorized
	}
	return Principal{OperatorID: o.ID, Email: o.Email, Role: o.Role, SessionID: sess.ID, ExpiresAt: sess.ExpiresAt}, nil
}

// SignOut ends a session.
func (s *Operators) SignOut(ctx context.Context, p Principal) error {
	return s.store.RevokeOperatorSession(ctx, p.SessionID, s.now().UTC())
}

// CSRFToken is the CSRF token of a session token: derived, so nothing more is stored, and only
// whoever holds the cookie's value (never a cross-site page) can know it.
func CSRFToken(sessionToken string) string {
	sum := sha256.Sum256([]byte("streamcart operator csrf:" + sessionToken))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// CSRFMatches compares a request's CSRF header with its cookie's, in constant time.
func CSRFMatches(sessionToken, header string) bool {
	return sessionToken != "" && header != "" &&
		subtle.ConstantTimeCompare([]byte(CSRFToken(sessionToken)), []byte(header)) == 1
}

// matchCode finds the time step of code among now's and its neighbours' (clock drift).
func matchCode(secret, code string, now time.Time) (int64, bool) {
	if secret == "" || len(code) != 6 {
		return 0, false
	}
	step := now.Unix() / int64(totpOpts.Period)
	for _, d := range []int64{0, -1, 1} {
		at := time.Unix((step+d)*int64(totpOpts.Period), 0)
		want, err := totp.GenerateCodeCustom(secret, at, totpOpts)
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return step + d, true
		}
	}
	return 0, false
}

// Code is the TOTP code of secret at t (for tests and the CLI's checks).
func Code(secret string, t time.Time) (string, error) {
	return totp.GenerateCodeCustom(secret, t, totpOpts)
}

func checkPassword(p string) error {
	switch {
	case len(p) > MaxPasswordBytes:
		return ErrLongPassword
	case len([]rune(p)) < MinPasswordLen:
		return ErrWeakPassword
	}
	return nil
}

func randomToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// hashToken is how setup and session tokens are stored: a database read signs nobody in.
func hashToken(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}
