package store_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/renewal"
	"github.com/streamcart/streamcart/api/store"
)

// A suspended line paid is due a cycle after the payment, counted on the payment's day as its new
// anchor (period.AddMonths): paid on 31 January it is due on the last day of February, never on
// 3 March (Go's AddDate).
func TestSuspendedLinePaidIsDueOnThePaymentsAnchor(t *testing.T) {
	for _, tc := range []struct {
		paid   string
		months int
		want   string
	}{
		{"2027-01-31T10:00:00Z", 1, "2027-02-28T10:00:00Z"},
		{"2028-01-30T10:00:00Z", 1, "2028-02-29T10:00:00Z"},
		{"2027-03-31T23:59:00Z", 1, "2027-04-30T23:59:00Z"},
		{"2027-02-28T00:00:00Z", 1, "2027-03-28T00:00:00Z"},
		{"2026-11-30T10:00:00Z", 3, "2027-02-28T10:00:00Z"},
	} {
		t.Run(fmt.Sprintf("paid %s, %d months", tc.paid, tc.months), func(t *testing.T) {
			paid, _ := time.Parse(time.RFC3339, tc.paid)
			want, _ := time.Parse(time.RFC3339, tc.want)
			forEachBackend(t, func(t *testing.T, s store.Backend) {
				ctx := t.Context()
				due := paid.Add(-10 * 24 * time.Hour)
				svc := runningService(t, s, "suspended@example.com", order.ServiceSuspended, due)
				rn := renewal.Renewal{OrderID: "ord_reactivated", ServiceID: svc.ID, PeriodStart: due,
					PeriodEnd: due.AddDate(0, tc.months, 0), CycleMonths: tc.months, CreatedAt: due}
				if ok, err := s.ReserveRenewal(ctx, rn); err != nil || !ok {
					t.Fatalf("reserve: %v %v", ok, err)
				}
				got, err := s.ApplyRenewal(ctx, rn.OrderID, paid)
				if err != nil || got.Status != order.ServiceActive || !got.NextDueDate.Equal(want) || !got.ExpiresAt.Equal(want) {
					t.Fatalf("apply: %+v %v; want active, due and expiring %s", got, err, want)
				}
				if read, err := s.Service(ctx, svc.ID); err != nil || !read.NextDueDate.Equal(want) {
					t.Fatalf("service read back %+v %v: due %s", read, err, want)
				}
			})
		})
	}
}
