package order

import (
	"errors"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
)

// TrialIPWindow is how far back the free trials from one address are counted.
const TrialIPWindow = 30 * 24 * time.Hour

// The free-trial limits a shop has unless configured otherwise (STREAMCART_TRIALS_PER_CLIENT,
// STREAMCART_TRIALS_PER_IP).
const (
	DefaultTrialsPerClient = 1
	DefaultTrialsPerIP     = 3
)

var (
	// ErrTrialUsed means the client, its e-mail address in any spelling, or the address the
	// order comes from has had its free trials.
	ErrTrialUsed = errors.New("free trial already used")
	// ErrTrialUnavailable means the shop gives no free trial to the buyer's e-mail address (a
	// disposable one): refused before anything is stored.
	ErrTrialUnavailable = errors.New("free trial unavailable for this address")
	// ErrOutOfStock means the panel cannot make a line of the plan now (its reseller credits
	// cannot cover the plan's cost): refused before anything is stored or charged.
	ErrOutOfStock = errors.New("plan temporarily unavailable")
)

// TrialStart is the durable record of a free trial started: written with the trial's order, in
// its transaction, and never changed. The limits count these, not the lines flagged trial now:
// a trial converted to a paid plan (or refunded back to a trial) was started all the same.
type TrialStart struct {
	OrderID   string
	ClientID  int64
	IP        string
	EmailKey  string // CanonicalEmail of the order's address
	CreatedAt time.Time
}

// CanonicalEmail is the one form of every spelling of one mailbox, for counting trials: lower
// case, the local part without its "+tag", and at Gmail (gmail.com, googlemail.com, which are
// one) without dots, which Gmail ignores.
func CanonicalEmail(email string) string {
	e := strings.ToLower(strings.TrimSpace(email))
	at := strings.LastIndexByte(e, '@')
	if at < 0 {
		return e
	}
	local, domain := e[:at], e[at+1:]
	if i := strings.IndexByte(local, '+'); i >= 0 {
		local = local[:i]
	}
	if domain == "googlemail.com" {
		domain = "gmail.com"
	}
	if domain == "gmail.com" {
		local = strings.ReplaceAll(local, ".", "")
	}
	return local + "@" + domain
}

// isTrial reports whether pid is one of the catalog's free trials.
func isTrial(cat *catalog.Catalog, pid int) bool {
	p, ok := cat.Product(pid)
	return ok && p.Trial
}

// trialCheck makes check count the trials when pid is a free trial and a limit is set: those
// started by the client, by its e-mail address in its canonical form, and from the address. The
// counts are read under a lock each, so concurrent trial orders queue up and each sees the ones
// committed before it.
func (s *Orders) trialCheck(cat *catalog.Catalog, pid int, email string, now time.Time, check *Check) {
	if !isTrial(cat, pid) || (s.cfg.TrialsPerClient <= 0 && s.cfg.TrialsPerIP <= 0) {
		return
	}
	check.Trial, check.TrialSince, check.TrialEmail = true, now.Add(-TrialIPWindow), CanonicalEmail(email)
}

// trialAllowed refuses a trial order beyond either limit: the client's applies to its e-mail
// address too, so a new client on another spelling of one mailbox has no trial either.
func (s *Orders) trialAllowed(check Check, got Checked) error {
	if !check.Trial {
		return nil
	}
	if n := s.cfg.TrialsPerClient; n > 0 && (got.Trials >= n || got.TrialsOfEmail >= n) {
		return ErrTrialUsed
	}
	if n := s.cfg.TrialsPerIP; n > 0 && got.TrialsFromIP >= n {
		return ErrTrialUsed
	}
	return nil
}
