// Package credits knows the panel's reseller credit balance before a sale. Panels that spend
// reseller credits (XUI.one and Xtream UI resellers, the built-in panel) refuse new lines at 0;
// the shop reads the balance (cached, refreshed every Every), shows a plan whose cost (catalog
// `credits`) it cannot cover as temporarily unavailable, refuses its orders before any payment,
// and mails the owners once each time the balance falls to the low-water mark.
package credits

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/operator"
	"github.com/streamcart/streamcart/api/panel"
)

// DefaultAlert is the low-water mark when STREAMCART_PANEL_CREDITS_ALERT is unset.
const DefaultAlert = 10

// Every bounds how long the cached balance may be old: a remote panel is read every
// RemoteEvery, the built-in one (a row of the shop's database) every LocalEvery.
const (
	RemoteEvery = time.Minute
	LocalEvery  = 2 * time.Second
)

// lowSetting is the settings row saying the balance was last seen at or under the mark: it makes
// the owners' mail go out once per crossing whatever the number of replicas.
const lowSetting = "panel_credits_low"

// Store is what the alert needs.
type Store interface {
	ListOperators(ctx context.Context) ([]operator.Operator, error)
	UpdateSetting(ctx context.Context, key string, change func(old []byte, ok bool) ([]byte, error)) ([]byte, error)
}

// Mailer queues a message (mail.Outbox).
type Mailer interface {
	Send(ctx context.Context, m mail.Message) error
}

// Config is the balance's wiring.
type Config struct {
	Panel panel.CreditReader // nil: the panel spends no credits
	Every time.Duration      // how often Run reads the balance; 0: RemoteEvery
	// Fresh makes an order check read the balance again unless the cached one is known to be
	// current (a cheap reader: the built-in panel). A reader that counts this process's writes
	// to the balance (panel.CreditWrites) is read again only when the count moved since the
	// cached balance was read; changes made elsewhere are read every Every.
	Fresh bool
	// Alert is the low-water mark: a balance at or under it mails the owners once per crossing
	// and shows the console's banner; negative: no alert.
	Alert   float64
	Store   Store
	Mail    Mailer
	Shop    string // the shop's name, in the mail
	Console string // the console's address, in the mail
	Log     *slog.Logger
}

// Balance is the cached balance. Its zero value knows no balance and covers every cost.
type Balance struct {
	c Config

	mu       sync.RWMutex
	value    float64
	known    bool
	lowSaved *bool // the low flag as last written to the store; nil: not yet
	// writes is the panel's count of this process's writes when value was read (read: there
	// is one; see Config.Fresh).
	writes uint64
	read   bool

	listenMu sync.Mutex
	listen   []func()
}

// New returns the balance of c; nothing is read until Refresh.
func New(c Config) *Balance {
	if c.Every <= 0 {
		c.Every = RemoteEvery
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	return &Balance{c: c}
}

// OnChange calls fn (synchronously, from the refreshing goroutine) whenever the balance read
// differs from the one before: what caches a view of it (the encoded product list) recomputes.
func (b *Balance) OnChange(fn func()) {
	b.listenMu.Lock()
	b.listen = append(b.listen, fn)
	b.listenMu.Unlock()
}

// Get answers the cached balance and whether there is one.
func (b *Balance) Get() (float64, bool) {
	if b == nil {
		return 0, false
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.value, b.known
}

// Covers reports whether the cached balance pays cost credits: true with no balance known.
func (b *Balance) Covers(cost int) bool {
	v, known := b.Get()
	return !known || cost <= 0 || v >= float64(cost)
}

// Low reports whether the cached balance is at or under the low-water mark.
func (b *Balance) Low() bool {
	v, known := b.Get()
	return known && b.c.Alert >= 0 && v <= b.c.Alert
}

// Alert is the low-water mark (negative: none).
func (b *Balance) Alert() float64 {
	if b == nil {
		return -1
	}
	return b.c.Alert
}

// ErrNotEnough means the balance cannot pay for a plan's line.
var ErrNotEnough = errors.New("credits: the panel's balance cannot cover the plan")

// Check answers ErrNotEnough when the balance cannot pay cost credits: read afresh first when
// the reader is cheap (Config.Fresh), else the cached one.
func (b *Balance) Check(ctx context.Context, cost int) error {
	if b == nil || cost <= 0 {
		return nil
	}
	if b.c.Fresh && b.stale() {
		if _, err := b.Refresh(ctx); err != nil {
			b.c.Log.Warn("panel credits unreadable; the last balance read decides", "err", err)
		}
	}
	if !b.Covers(cost) {
		return ErrNotEnough
	}
	return nil
}

// stale reports whether the cached balance may differ from the panel's: always, unless the
// panel counts this process's writes and none was made since the cached balance was read.
func (b *Balance) stale() bool {
	w, ok := b.c.Panel.(panel.CreditWrites)
	if !ok {
		return true
	}
	n, ok := w.CreditWrites()
	if !ok {
		return true
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	return !b.read || b.writes != n
}

// Refresh reads the balance from the panel, tells the listeners when it changed, and mails the
// owners when it crossed the low-water mark downwards. A panel that cannot be read keeps the last
// balance (a blip must not close or open the shop); one that reports none (ErrNoBalance) makes
// every plan available.
func (b *Balance) Refresh(ctx context.Context) (bool, error) {
	if b == nil || b.c.Panel == nil {
		return false, nil
	}
	var writes uint64
	counted := false
	if w, ok := b.c.Panel.(panel.CreditWrites); ok {
		writes, counted = w.CreditWrites() // before the read: a write after it moves the count
	}
	v, err := b.c.Panel.Credits(ctx)
	known := true
	switch {
	case errors.Is(err, panel.ErrNoBalance):
		v, known = 0, false
	case err != nil:
		return false, fmt.Errorf("read panel credits: %w", err)
	}
	b.mu.Lock()
	changed := b.value != v || b.known != known
	b.value, b.known = v, known
	b.writes, b.read = writes, counted
	b.mu.Unlock()
	if changed {
		b.listenMu.Lock()
		fns := append([]func(){}, b.listen...)
		b.listenMu.Unlock()
		for _, fn := range fns {
			fn()
		}
	}
	return changed, b.alert(ctx)
}

// alert records whether the balance is low, and mails the owners when this call moved the record
// from not low to low: one mail per crossing across replicas (the record's update decides).
func (b *Balance) alert(ctx context.Context) error {
	if b.c.Store == nil {
		return nil
	}
	low := b.Low()
	b.mu.RLock()
	saved := b.lowSaved
	b.mu.RUnlock()
	if saved != nil && *saved == low {
		return nil // nothing to write: the usual refresh costs no database write
	}
	crossed := false
	_, err := b.c.Store.UpdateSetting(ctx, lowSetting, func(old []byte, _ bool) ([]byte, error) {
		crossed = low && string(old) != "1"
		if low {
			return []byte("1"), nil
		}
		return []byte("0"), nil
	})
	if err != nil {
		return fmt.Errorf("panel credits alert: %w", err)
	}
	b.mu.Lock()
	b.lowSaved = &low
	b.mu.Unlock()
	if !crossed {
		return nil
	}
	v, _ := b.Get()
	return b.mailOwners(ctx, v)
}

// mailOwners mails every owner (operators with the owner role not disabled).
func (b *Balance) mailOwners(ctx context.Context, v float64) error {
	if b.c.Mail == nil {
		return nil
	}
	ops, err := b.c.Store.ListOperators(ctx)
	if err != nil {
		return fmt.Errorf("panel credits alert: %w", err)
	}
	shop := b.c.Shop
	if shop == "" {
		shop = "Streamcart"
	}
	left := strconv.FormatFloat(v, 'f', -1, 64)
	mark := strconv.FormatFloat(b.c.Alert, 'f', -1, 64)
	body := fmt.Sprintf("The panel's reseller credit balance is %s, at or under the alert mark of %s (STREAMCART_PANEL_CREDITS_ALERT).\n\n"+
		"Plans whose line costs more credits than the balance are shown as temporarily unavailable, and their orders are refused before any payment (409 out_of_stock).\n\n"+
		"Top up the reseller account on the panel; the shop reads the balance again within a minute.\n", left, mark)
	if b.c.Console != "" {
		body += "\nConsole: " + b.c.Console + "\n"
	}
	var errs []error
	for _, o := range ops {
		if o.Role != operator.RoleOwner || o.Status == operator.StatusDisabled {
			continue
		}
		errs = append(errs, b.c.Mail.Send(ctx, mail.Message{To: o.Email, Subject: fmt.Sprintf("%s: panel credits low (%s left)", shop, left), Body: body}))
	}
	return errors.Join(errs...)
}

// Run refreshes the balance every Config.Every until ctx ends.
func (b *Balance) Run(ctx context.Context) {
	if b == nil || b.c.Panel == nil {
		return
	}
	tick := time.NewTicker(b.c.Every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if _, err := b.Refresh(ctx); err != nil && ctx.Err() == nil {
			b.c.Log.Warn("panel credits check failed; keeping the last balance", "err", err)
		}
	}
}

// Credits is Get under the name the console reads.
func (b *Balance) Credits() (float64, bool) { return b.Get() }

// Available reports whether the balance covers a line of p in at least one of its cycles (its
// cheapest): the plan is for sale; a cycle dearer than the balance is refused at its order.
func (b *Balance) Available(p catalog.Product) bool {
	cheapest := -1
	for _, c := range p.EnabledCycles() {
		if cost := p.CreditCost(c); cheapest < 0 || cost < cheapest {
			cheapest = cost
		}
	}
	return cheapest <= 0 || b.Covers(cheapest)
}
