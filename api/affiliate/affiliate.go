// Package affiliate records affiliate clicks and reports, per affiliate, clicks, orders and paid
// revenue (orders carry the affiliate id they were placed with).
package affiliate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/money"
)

// ErrInvalidID means the affiliate id is not 1 to 18 digits.
var ErrInvalidID = errors.New("affiliate: id must be digits")

var idRule = regexp.MustCompile(`^[0-9]{1,18}$`)

// ValidID reports whether id is an affiliate id (the spec's aff_id is a number).
func ValidID(id string) bool { return idRule.MatchString(id) }

// Click is one visit through an affiliate link.
type Click struct {
	AffID   string
	Referer string
	IP      string
	At      time.Time
}

// Row is one affiliate's figures. Revenue is the sum of paid invoices, one amount per currency.
type Row struct {
	AffID      string
	Clicks     int
	Orders     int
	PaidOrders int
	Revenue    []money.Money
}

// Store records clicks and counts.
type Store interface {
	// InsertClick records a click; a repeat from the same address for the same affiliate on the
	// same UTC day is not recorded again.
	InsertClick(ctx context.Context, c Click) error
	// AffiliateCounts returns clicks and orders since the time, and paid revenue per currency.
	AffiliateCounts(ctx context.Context, since time.Time) (clicks map[string]int, orders map[string]int, paid map[string]int, revenue map[string]map[string]int64, err error)
}

// Affiliates records and reports.
type Affiliates struct {
	store Store
	now   func() time.Time
}

// New returns the affiliate service; now is the business clock (click times), nil: real time.
func New(store Store, now func() time.Time) *Affiliates {
	return &Affiliates{store: store, now: clock.OrReal(now)}
}

// maxReferer keeps a stored referer short.
const maxReferer = 2048

// RecordClick stores a click; a click repeated from one address the same day counts once.
func (a *Affiliates) RecordClick(ctx context.Context, affID, referer, ip string) error {
	if !ValidID(affID) {
		return ErrInvalidID
	}
	if len(referer) > maxReferer {
		referer = referer[:maxReferer]
	}
	if err := a.store.InsertClick(ctx, Click{AffID: affID, Referer: referer, IP: ip, At: a.now().UTC()}); err != nil {
		return fmt.Errorf("record click: %w", err)
	}
	return nil
}

// Report returns every affiliate with a click or an order since the time (zero: ever), by id.
func (a *Affiliates) Report(ctx context.Context, since time.Time) ([]Row, error) {
	clicks, orders, paid, revenue, err := a.store.AffiliateCounts(ctx, since)
	if err != nil {
		return nil, fmt.Errorf("affiliate report: %w", err)
	}
	rows := map[string]*Row{}
	row := func(id string) *Row {
		if rows[id] == nil {
			rows[id] = &Row{AffID: id}
		}
		return rows[id]
	}
	for id, n := range clicks {
		row(id).Clicks = n
	}
	for id, n := range orders {
		row(id).Orders = n
	}
	for id, n := range paid {
		row(id).PaidOrders = n
	}
	for id, byCur := range revenue {
		r := row(id)
		for cur, amt := range byCur {
			r.Revenue = append(r.Revenue, money.Money{Amount: amt, Currency: cur})
		}
		sort.Slice(r.Revenue, func(i, j int) bool { return r.Revenue[i].Currency < r.Revenue[j].Currency })
	}
	out := make([]Row, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].AffID) != len(out[j].AffID) {
			return len(out[i].AffID) < len(out[j].AffID) // numeric order for digit strings
		}
		return out[i].AffID < out[j].AffID
	})
	return out, nil
}

// Print writes rows as a table: affiliate, clicks, orders, paid orders and revenue per currency,
// amounts rendered by format (minor units of a currency to decimal text, e.g. money.Format).
func Print(w io.Writer, rows []Row, format func(minor int64, currency string) string) error {
	if _, err := fmt.Fprintln(w, "AFFILIATE\tCLICKS\tORDERS\tPAID\tREVENUE"); err != nil {
		return err
	}
	for _, r := range rows {
		rev := "-"
		if len(r.Revenue) > 0 {
			parts := make([]string, len(r.Revenue))
			for i, m := range r.Revenue {
				parts[i] = format(m.Amount, m.Currency) + " " + m.Currency
			}
			rev = strings.Join(parts, ", ")
		}
		if _, err := fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%s\n", r.AffID, r.Clicks, r.Orders, r.PaidOrders, rev); err != nil {
			return err
		}
	}
	return nil
}
