// Package revenue is the dashboard's subscription figures (issue 26): monthly recurring revenue,
// active subscriptions, churn over 30 days, renewals due, failed renewals and refunds, each in
// the shop's default currency.
package revenue

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
)

// Store reads what the figures are made of.
type Store interface {
	// RecurringLines are the lines Active or Overdue that renew (not trials, with a due date),
	// with the orders that bought them, by order id.
	RecurringLines(ctx context.Context) ([]order.Service, map[string]order.Order, error)
	// Churn counts the lines (not trials) that ended (Cancelled, Terminated, Expired) with their
	// period in [from, now], and those that were live at from.
	Churn(ctx context.Context, from, now time.Time) (ended, liveAtFrom int, err error)
	// FailedRenewals counts the renewals whose payment failed since from, once each: a failed
	// invoice, or a saved card's off-session charge declined, needing authentication or refused.
	FailedRenewals(ctx context.Context, from time.Time) (int, error)
	// RefundTotals counts the refunds made since from and sums them per currency.
	RefundTotals(ctx context.Context, from time.Time) (int, map[string]int64, error)
}

// Pricer is what a line's next period costs and how many months it covers (renewal.Renewals):
// ok is false for a line that does not renew.
type Pricer interface {
	RecurringAmountOf(first order.Order, svc order.Service) (amount money.Money, months int, ok bool)
}

// Figures are the dashboard's subscription figures.
type Figures struct {
	// MRR is the recurring amounts of the lines that will renew, each divided by its months.
	MRR money.Money
	// ActiveSubscriptions are the lines Active or Overdue that renew, auto-renew on or off.
	ActiveSubscriptions int
	// Churn30d is the lines that ended in the last 30 days ÷ the lines live 30 days ago (0 with
	// none live then).
	Churn30d float64
	// Due7 and Due30 are the renewals due (overdue ones included) within 7 and 30 days, with
	// auto-renew on, and what they will charge.
	Due7, Due30 Count
	// FailedRenewals are the renewals whose payment failed since the summary's first day (a
	// failed invoice or a saved card not charged), once each.
	FailedRenewals int
	// Refunds are the refunds since the summary's first day.
	Refunds Count
}

// Count is a number of things and their amount.
type Count struct {
	Count  int
	Amount money.Money
}

// Revenue computes the figures.
type Revenue struct {
	store   Store
	catalog func() *catalog.Catalog
	prices  Pricer
	now     func() time.Time
}

// New returns the figures' reader; now is business time (nil: real time).
func New(store Store, cat func() *catalog.Catalog, prices Pricer, now func() time.Time) *Revenue {
	return &Revenue{store: store, catalog: cat, prices: prices, now: clock.OrReal(now)}
}

// Figures are the subscription figures now, failed renewals and refunds counted from from.
func (r *Revenue) Figures(ctx context.Context, from time.Time) (Figures, error) {
	now := r.now().UTC()
	cat := r.catalog()
	def := cat.DefaultCurrency
	f := Figures{MRR: money.Money{Currency: def}, Due7: Count{Amount: money.Money{Currency: def}},
		Due30: Count{Amount: money.Money{Currency: def}}, Refunds: Count{Amount: money.Money{Currency: def}}}
	toDefault := func(m money.Money) (int64, error) {
		if m.Currency == def {
			return m.Amount, nil
		}
		c, _, err := pricing.Convert(cat, m.Amount, m.Currency, def)
		return c.Amount, err
	}

	lines, firsts, err := r.store.RecurringLines(ctx)
	if err != nil {
		return f, fmt.Errorf("revenue: %w", err)
	}
	var monthly float64 // in the default currency's minor units, rounded once at the end
	for _, svc := range lines {
		first, ok := firsts[svc.OrderID]
		if !ok {
			continue
		}
		amount, months, ok := r.prices.RecurringAmountOf(first, svc)
		if !ok || months <= 0 {
			continue
		}
		f.ActiveSubscriptions++
		if !svc.AutoRenew {
			continue // ends at its due date: no more revenue, no renewal to come
		}
		a, err := toDefault(amount)
		if err != nil {
			return f, fmt.Errorf("revenue: line %s: %w", svc.ID, err)
		}
		monthly += float64(a) / float64(months)
		for _, d := range []struct {
			within time.Duration
			c      *Count
		}{{7 * 24 * time.Hour, &f.Due7}, {30 * 24 * time.Hour, &f.Due30}} {
			if !svc.NextDueDate.After(now.Add(d.within)) {
				d.c.Count++
				d.c.Amount.Amount += a
			}
		}
	}
	f.MRR.Amount = int64(math.Round(monthly))

	ended, live, err := r.store.Churn(ctx, now.AddDate(0, 0, -30), now)
	if err != nil {
		return f, fmt.Errorf("revenue: %w", err)
	}
	if live > 0 {
		f.Churn30d = math.Round(float64(ended)/float64(live)*10000) / 10000
	}
	if f.FailedRenewals, err = r.store.FailedRenewals(ctx, from); err != nil {
		return f, fmt.Errorf("revenue: %w", err)
	}
	n, sums, err := r.store.RefundTotals(ctx, from)
	if err != nil {
		return f, fmt.Errorf("revenue: %w", err)
	}
	f.Refunds.Count = n
	for cur, amt := range sums {
		a, err := toDefault(money.Money{Amount: amt, Currency: cur})
		if err != nil {
			return f, fmt.Errorf("revenue: refunds in %s: %w", cur, err)
		}
		f.Refunds.Amount.Amount += a
	}
	return f, nil
}
