package order

import (
	"errors"
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

// ErrTrialUsed means the client, or the address the order comes from, has had its free trials.
var ErrTrialUsed = errors.New("free trial already used")

// trialCheck makes check count the trials when pid is a free trial and a limit is set. The
// counts are read under a lock per client and per address, so concurrent trial orders queue up
// and each sees the ones committed before it.
func (s *Orders) trialCheck(cat *catalog.Catalog, pid int, now time.Time, check *Check) {
	p, ok := cat.Product(pid)
	if !ok || !p.Trial || (s.cfg.TrialsPerClient <= 0 && s.cfg.TrialsPerIP <= 0) {
		return
	}
	check.Trial, check.TrialSince = true, now.Add(-TrialIPWindow)
}

// trialAllowed refuses a trial order beyond either limit.
func (s *Orders) trialAllowed(check Check, got Checked) error {
	if !check.Trial {
		return nil
	}
	if n := s.cfg.TrialsPerClient; n > 0 && got.Trials >= n {
		return ErrTrialUsed
	}
	if n := s.cfg.TrialsPerIP; n > 0 && got.TrialsFromIP >= n {
		return ErrTrialUsed
	}
	return nil
}
