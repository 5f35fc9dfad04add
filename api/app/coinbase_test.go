package app_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/payment"
	genorder "github.com/streamcart/streamcart/gen/order"
)

const (
	coinbaseKeyID  = "organizations/org-1/apiKeys/key-1"
	coinbaseSecret = "hook0-subscription-secret"
)

// fakeCoinbase is the Coinbase Business Checkouts API as documented: a JWT per request (ES256
// here: verified with the key's public half; kid, nonce, sub, iss "cdp", two-minute nbf/exp, uri
// "METHOD host/path"), POST /api/v1/checkouts, GET /api/v1/checkouts/{id},
// POST /api/v1/checkouts/{id}/deactivate. The Payment Link API it replaces answers nothing here:
// a shop that still made links would fail this fake.
type fakeCoinbase struct {
	srv    *httptest.Server
	secret string // the CDP key secret (PEM, newlines escaped as in an environment variable)
	mu     sync.Mutex
	down   bool
	links  map[string]map[string]any
	order  []string
}

func newFakeCoinbase(t *testing.T) *fakeCoinbase {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalECPrivateKey(k)
	f := &fakeCoinbase{links: map[string]map[string]any{},
		secret: strings.ReplaceAll(string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})), "\n", `\n`)}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if f.down {
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"errorType":"service_unavailable","errorMessage":"try later"}`))
			return
		}
		bearer, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		tok, err := jwt.Parse(bearer, func(*jwt.Token) (any, error) { return &k.PublicKey, nil },
			jwt.WithValidMethods([]string{"ES256"}), jwt.WithIssuer("cdp"), jwt.WithSubject(coinbaseKeyID))
		if err != nil || tok.Header["kid"] != coinbaseKeyID || tok.Header["nonce"] == nil ||
			tok.Claims.(jwt.MapClaims)["uri"] != r.Method+" "+r.Host+r.URL.Path {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"errorType":"unauthorized","errorMessage":"bad JWT"}`))
			return
		}
		id, deactivate := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/api/v1/checkouts/"), "/deactivate")
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/api/v1/checkouts":
			var body map[string]any
			if json.NewDecoder(r.Body).Decode(&body) != nil || body["currency"] != "USDC" || r.Header.Get("X-Idempotency-Key") == "" {
				w.WriteHeader(http.StatusBadRequest)
				return
			}
			id := fmt.Sprintf("%024x", 0x68f7a946+len(f.links))
			f.links[id] = map[string]any{"id": id, "url": "https://payments.coinbase.com/payment-links/pl_" + id, "status": "ACTIVE",
				"amount": body["amount"], "currency": "USDC", "network": body["network"], "metadata": body["metadata"],
				"description": body["description"], "expiresAt": body["expiresAt"],
				"successRedirectUrl": body["successRedirectUrl"], "failRedirectUrl": body["failRedirectUrl"]}
			f.order = append(f.order, id)
			w.WriteHeader(http.StatusCreated)
			json.NewEncoder(w).Encode(f.links[id])
		case f.links[id] == nil || !strings.HasPrefix(r.URL.Path, "/api/v1/checkouts/"):
			w.WriteHeader(http.StatusNotFound)
		case r.Method == http.MethodPost && deactivate:
			f.links[id]["status"] = "DEACTIVATED"
			json.NewEncoder(w).Encode(f.links[id])
		case r.Method == http.MethodGet:
			json.NewEncoder(w).Encode(f.links[id])
		default:
			w.WriteHeader(http.StatusMethodNotAllowed)
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeCoinbase) charges() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.links)
}

// last is the last checkout made.
func (f *fakeCoinbase) last() map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.links[f.order[len(f.order)-1]]
}

func (f *fakeCoinbase) setDown(down bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = down
}

// config is the shop's Coinbase Business setup against the fake.
func (f *fakeCoinbase) config() payment.Config {
	return payment.Config{CoinbaseKeyID: coinbaseKeyID, CoinbaseKeySecret: f.secret, CoinbaseWebhookSecret: coinbaseSecret, CoinbaseAPIURL: f.srv.URL}
}

// postCoinbaseEvent sends a checkout's event signed in X-Hook0-Signature (at at, with secret) to the
// shop's webhook and answers the status.
func postCoinbaseEvent(t *testing.T, s *shop, link map[string]any, eventType, secret string, at time.Time) int {
	t.Helper()
	ev := map[string]any{"eventType": eventType}
	for k, v := range link {
		ev[k] = v
	}
	body, _ := json.Marshal(ev)
	ts := strconv.FormatInt(at.Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + ".content-type x-event-id.application/json.evt-1." + string(body)))
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, s.base+payment.WebhookPath("coinbase"), bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Event-Id", "evt-1")
	req.Header.Set("X-Hook0-Signature", "t="+ts+",h=content-type x-event-id,v1="+hex.EncodeToString(mac.Sum(nil)))
	resp, err := s.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestCoinbaseBusinessCheckout runs a crypto sale through the HTTP API: the order makes a Coinbase
// checkout and its answer shows the USDC amount, network and rate before paying; a forged or
// stale event is refused with 400 and stores nothing; a checkout seen PROCESSING shows the order
// as "payment seen, confirming" (paymentState processing, still pending); the signed
// checkout.payment.success settles once however often it comes; a cancelled order's checkout is
// deactivated; the provider down is a 503 to the buyer.
func TestCoinbaseBusinessCheckout(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		fake := newFakeCoinbase(t)
		s := newShop(t, func(c *app.Config) {
			c.PublicURL = "https://shop.example"
			c.Payment = fake.config()
			c.Payment.Modules = []string{"coinbase"}
		})
		buyer := s.identify("crypto@example.com", "")

		o := s.buy(buyer.Token, standard()) // 12.99 EUR
		q := o.PaymentQuote
		// 12.99 EUR × (USD 1.08 / EUR 1) = 14.0292 → 14.03 USDC, taken when the checkout was made.
		if q == nil || q.Amount != "14.03" || q.Currency != "USDC" || q.Network != "base" || q.Rate != "1.08" || q.RateTakenAt == "" {
			t.Fatalf("payment quote = %+v", q)
		}
		if got := s.getOrder(buyer.Token, o.OrderID).PaymentQuote; got == nil || *got != *q {
			t.Fatalf("order read shows quote %+v, want %+v", got, q)
		}
		link := fake.last()
		if o.PaymentURL != link["url"] || o.PaymentState != nil {
			t.Fatalf("payment URL = %q (state %v), want the checkout's %v", o.PaymentURL, o.PaymentState, link["url"])
		}

		for _, bad := range []struct {
			secret string
			at     time.Time
		}{{"forged", time.Now()}, {coinbaseSecret, time.Now().Add(-10 * time.Minute)}} {
			if got := postCoinbaseEvent(t, s, link, "checkout.payment.success", bad.secret, bad.at); got != http.StatusBadRequest {
				t.Fatalf("bad event = %d, want 400", got)
			}
		}
		if n := s.count(`SELECT COUNT(*) FROM webhooks WHERE provider = 'coinbase'`); n != 0 {
			t.Fatalf("refused events stored: %d", n)
		}
		// PROCESSING: the documentation names no event for it; a notification whose checkout is in
		// it shows the payment as seen and confirming, and settles nothing.
		link["status"] = "PROCESSING"
		if got := postCoinbaseEvent(t, s, link, "checkout.payment.processing", coinbaseSecret, time.Now()); got != http.StatusOK {
			t.Fatalf("processing notification = %d, want 200", got)
		}
		s.drain()
		if got := s.getOrder(buyer.Token, o.OrderID); got.Status != "pending" || got.PaymentState == nil || *got.PaymentState != "processing" {
			t.Fatalf("order = %s, payment state %v; want pending, processing", got.Status, got.PaymentState)
		}
		link["status"] = "COMPLETED"
		link["settlement"] = map[string]any{"totalAmount": "14.03", "feeAmount": "0.14", "netAmount": "13.89", "currency": "USDC"}
		for range 2 {
			if got := postCoinbaseEvent(t, s, link, "checkout.payment.success", coinbaseSecret, time.Now()); got != http.StatusOK {
				t.Fatalf("signed event = %d, want 200", got)
			}
		}
		s.drain()
		if got := s.getOrder(buyer.Token, o.OrderID); got.Status != "active" || got.PaymentState != nil {
			t.Fatalf("order = %s (payment state %v), want active", got.Status, got.PaymentState)
		}
		if n := s.count(`SELECT COUNT(*) FROM webhooks WHERE provider = 'coinbase'`); n != 2 {
			t.Fatalf("stored events = %d, want 2 (processing, success)", n)
		}

		// Cancelling a pending order deactivates its checkout.
		o2 := s.buy(buyer.Token, standard())
		if _, err := s.order.Cancel(t.Context(), &genorder.CancelPayload{Token: ptr(buyer.Token), OrderID: o2.OrderID}); err != nil {
			t.Fatal(err)
		}
		if got := fake.last()["status"]; got != "DEACTIVATED" {
			t.Fatalf("cancelled order's checkout = %v, want DEACTIVATED", got)
		}

		// The provider down: a clear 503 unavailable, and no order left behind unpaid for nothing.
		fake.setDown(true)
		status, _, body := s.raw(http.MethodPost, "/checkout/api/orders", buyer.Token, strings.NewReader(`{"pid":2,"billingCycle":"monthly"}`))
		if status != http.StatusServiceUnavailable || !strings.Contains(string(body), `"unavailable"`) || !strings.Contains(string(body), "payment provider is unavailable") {
			t.Fatalf("order while Coinbase is down = %d %s, want 503 unavailable", status, body)
		}
	})
}

// TestCoinbaseCommerceKeyStopsStart: the retired Commerce key stops the start, saying what to set.
func TestCoinbaseCommerceKeyStopsStart(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.PublicURL = "https://shop.example"
		cfg.Payment = payment.Config{CoinbaseCommerceAPIKey: "commerce-key"}
		_, err := app.Open(t.Context(), cfg, slog.New(slog.DiscardHandler))
		if err == nil || !strings.Contains(err.Error(), "Coinbase Commerce shut down") || !strings.Contains(err.Error(), "STREAMCART_COINBASE_KEY_ID") {
			t.Fatalf("start with STREAMCART_COINBASE_API_KEY = %v, want refused naming what to set", err)
		}
	})
}
