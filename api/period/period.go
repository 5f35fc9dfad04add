// Package period is the calendar of a billing period: how many months on a due date falls, kept on
// the line's billing anchor (the day of the month its periods start on), as Stripe and Paddle do.
// A line started on the 31st renews on the last day of shorter months and back on the 31st when a
// month has one (31 Jan → 28 Feb → 31 Mar → 30 Apr); Go's time.AddDate would overflow instead
// (31 Jan + 1 month = "31 Feb" = 3 Mar) and the line would drift to the 3rd for good. Every place
// that adds months to a billing date goes through AddMonths, and every day count of a period
// (proration) counts its start back with AddMonths too, so both agree on the period's bounds. The
// shop's dates are UTC (the store writes every time in UTC): days are UTC days.
package period

import "time"

// AddMonths is t moved n months (n may be negative) onto anchorDay: the day of the target month is
// anchorDay, or the month's last day when the month is shorter. It counts in UTC (a time given in
// another zone is taken at its UTC day and answered in UTC) and keeps t's time of day. An anchorDay
// outside 1..31 is t's own day (clamped the same way).
func AddMonths(t time.Time, n int, anchorDay int) time.Time {
	t = t.UTC()
	if anchorDay < 1 || anchorDay > 31 {
		anchorDay = t.Day()
	}
	y, m, _ := t.Date()
	// The first of the target month never overflows; its length decides the day.
	first := time.Date(y, m+time.Month(n), 1, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	day := min(anchorDay, DaysIn(first.Year(), first.Month()))
	return time.Date(first.Year(), first.Month(), day, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
}

// DaysIn is the number of days of month in year.
func DaysIn(year int, month time.Month) int {
	return time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// Anchor is the anchor day of a line due at due, derived from when it was registered (the
// service's creation, WHMCS's regdate): registered's day (UTC) when due lies on it — that day, or
// the last day of a shorter month — and otherwise due's own day. So a line bought on the 31st and
// due on 28 February is anchored on the 31st again, while a line whose due date moved off its
// registration day (paid a day later, reactivated after a suspension, converted from a trial, a due
// date an operator moved or extended) is anchored where its due date now lies. A zero registered
// is due's day.
func Anchor(due, registered time.Time) int {
	due = due.UTC()
	if registered.IsZero() {
		return due.Day()
	}
	r := registered.UTC().Day()
	if min(r, DaysIn(due.Year(), due.Month())) == due.Day() {
		return r
	}
	return due.Day()
}

// Days is the number of whole days from start to end (each taken at midnight UTC of its day).
func Days(start, end time.Time) int {
	return int(midnight(end).Sub(midnight(start)) / (24 * time.Hour)) // UTC days are all 24 hours long
}

func midnight(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
