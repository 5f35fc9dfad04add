package store

import (
	"context"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/affiliate"
)

// InsertClick records an affiliate click, unless the address already clicked for the
// affiliate the same UTC day (a reload or a script must not inflate the count).
func (s *db) InsertClick(ctx context.Context, c affiliate.Click) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO affiliate_clicks (aff_id, referer, ip, created_at, day) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (aff_id, ip, day) WHERE day <> '' DO NOTHING`, c.AffID, c.Referer, c.IP, fmtTime(c.At), c.At.UTC().Format(time.DateOnly))
	if err != nil {
		return fmt.Errorf("insert click: %w", err)
	}
	return nil
}

// AffiliateCounts counts clicks and orders per affiliate since the time, and sums the paid
// invoices of those orders per currency.
func (s *db) AffiliateCounts(ctx context.Context, since time.Time) (clicks, orders, paid map[string]int, revenue map[string]map[string]int64, err error) {
	from := fmtTime(since)
	clicks, orders, paid, revenue = map[string]int{}, map[string]int{}, map[string]int{}, map[string]map[string]int64{}
	count := func(q string, into map[string]int) error {
		rows, err := s.r.QueryContext(ctx, q, from)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			var n int
			if err := rows.Scan(&id, &n); err != nil {
				return err
			}
			into[id] = n
		}
		return rows.Err()
	}
	if err = count(`SELECT aff_id, COUNT(*) FROM affiliate_clicks WHERE created_at >= ? GROUP BY aff_id`, clicks); err != nil {
		return nil, nil, nil, nil, fmt.Errorf("count clicks: %w", err)
	}
	if err = count(`SELECT affiliate_id, COUNT(*) FROM orders WHERE affiliate_id <> '' AND created_at >= ? GROUP BY affiliate_id`, orders); err != nil {
		return nil, nil, nil, nil, fmt.Errorf("count orders: %w", err)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT o.affiliate_id, i.currency, COUNT(*), CAST(SUM(i.amount) AS BIGINT) FROM orders o JOIN invoices i ON i.order_id = o.id
		WHERE o.affiliate_id <> '' AND o.created_at >= ? AND i.status = 'paid' GROUP BY o.affiliate_id, i.currency`, from)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("sum revenue: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, cur string
		var n int
		var sum int64
		if err := rows.Scan(&id, &cur, &n, &sum); err != nil {
			return nil, nil, nil, nil, fmt.Errorf("sum revenue: %w", err)
		}
		paid[id] += n
		if revenue[id] == nil {
			revenue[id] = map[string]int64{}
		}
		revenue[id][cur] = sum
	}
	return clicks, orders, paid, revenue, rows.Err()
}
