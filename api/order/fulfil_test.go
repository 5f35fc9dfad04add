package order_test

import (
	"context"
	"errors"
	"testing"

	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/order"
)

// orderKinds is a store of orders by id, each of one kind.
type orderKinds map[string]order.Kind

func (s orderKinds) Order(_ context.Context, id string) (order.Order, error) {
	k, ok := s[id]
	if !ok {
		return order.Order{}, order.ErrNotFound
	}
	return order.Order{ID: id, Kind: k}, nil
}

// A paid order is fulfilled by the fulfiller of the kind stored with it, and by no other; an
// unknown order or a kind without a fulfiller fails for good, running nothing.
func TestFulfilmentIsLookedUpByKind(t *testing.T) {
	store := orderKinds{"ord_plan": order.KindPlan, "ord_up": order.KindUpsell, "ord_res": order.KindReseller, "ord_new": "renewal"}
	cases := []struct {
		ref       string
		ran       order.Kind // "": none
		permanent bool
	}{
		{"ord_plan", order.KindPlan, false},
		{"ord_up", order.KindUpsell, false},
		{"ord_res", order.KindReseller, false},
		{"ord_new", "", true},
		{"ord_none", "", true},
	}
	for _, tc := range cases {
		t.Run(tc.ref, func(t *testing.T) {
			var ran []order.Kind
			fulfil := map[order.Kind]job.Handler{}
			for _, k := range []order.Kind{order.KindPlan, order.KindUpsell, order.KindReseller} {
				fulfil[k] = func(_ context.Context, j job.Job) error {
					if j.Ref != tc.ref {
						t.Errorf("%s fulfiller ran for %s", k, j.Ref)
					}
					ran = append(ran, k)
					return nil
				}
			}
			err := order.Fulfilment(store, fulfil)(t.Context(), job.Job{Kind: order.JobProvision, Ref: tc.ref})
			if job.IsPermanent(err) != tc.permanent || (err != nil) != tc.permanent {
				t.Fatalf("error %v, want permanent %v", err, tc.permanent)
			}
			if tc.ran == "" && len(ran) > 0 || tc.ran != "" && (len(ran) != 1 || ran[0] != tc.ran) {
				t.Fatalf("ran %v, want %q", ran, tc.ran)
			}
		})
	}
}

// A store that cannot read the order is a failure the job retries.
func TestFulfilmentRetriesAStoreError(t *testing.T) {
	boom := errors.New("store down")
	err := order.Fulfilment(failingStore{boom}, nil)(t.Context(), job.Job{Ref: "ord_1"})
	if !errors.Is(err, boom) || job.IsPermanent(err) {
		t.Fatalf("error %v, want a retryable %v", err, boom)
	}
}

type failingStore struct{ err error }

func (s failingStore) Order(context.Context, string) (order.Order, error) {
	return order.Order{}, s.err
}
