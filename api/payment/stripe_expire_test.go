package payment_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
)

// ExpireCheckout ends an open session; one Stripe will not expire because it is no longer open
// (expired at its deadline, or complete) has nothing to end and is no failure; any other refusal
// is one, reported.
func TestStripeExpireCheckoutOfASessionNoLongerOpen(t *testing.T) {
	status := map[string]string{"cs_open": "open", "cs_expired": "expired", "cs_complete": "complete", "cs_down": "open"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		id := strings.Split(r.URL.Path, "/")[4]
		switch {
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/expire") && id == "cs_down":
			w.WriteHeader(http.StatusInternalServerError)
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"type": "api_error", "message": "An unknown error occurred"}})
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/expire") && status[id] != "open":
			w.WriteHeader(http.StatusBadRequest)
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"type": "invalid_request_error",
				"message": `Only Checkout Sessions with a status in ["open"] can be expired.`}})
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/expire"):
			json.NewEncoder(w).Encode(map[string]any{"id": id, "object": "checkout.session", "status": "expired"})
		case r.Method == http.MethodGet:
			json.NewEncoder(w).Encode(map[string]any{"id": id, "object": "checkout.session", "status": status[id]})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	for _, tc := range []struct {
		session string
		fails   bool
	}{{"cs_open", false}, {"cs_expired", false}, {"cs_complete", false}, {"cs_down", true}} {
		t.Run(tc.session, func(t *testing.T) {
			r := &memRefs{m: map[string]string{"stripe/inv_1": tc.session}}
			s := payment.NewStripe(payment.StripeConfig{SecretKey: "sk_test_123", APIURL: srv.URL}, r)
			err := s.ExpireCheckout(t.Context(), order.Order{Invoice: order.Invoice{ID: "inv_1"}})
			if tc.fails != (err != nil) || (tc.fails && !errors.Is(err, payment.ErrUnavailable)) {
				t.Fatalf("expire %s: %v, want failure %v", tc.session, err, tc.fails)
			}
		})
	}
}
