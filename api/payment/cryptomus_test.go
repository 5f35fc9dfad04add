package payment_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

const cryptomusMerchant, cryptomusKey = "8b03432e-385b-4670-8d06-064591096795", "cryptomus-payment-key"

// fakeCryptomus is Cryptomus's payment API as documented: every request signed with headers
// merchant and sign = md5(base64(body) + key), answers {"state":0,"result":{…}}.
type fakeCryptomus struct {
	mu       sync.Mutex
	down     bool
	status   string
	requests []map[string]any
	srv      *httptest.Server
}

func newFakeCryptomus(t *testing.T) *fakeCryptomus {
	f := &fakeCryptomus{status: "check"}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeCryptomus) set(down bool, status string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down, f.status = down, status
}

func (f *fakeCryptomus) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		http.Error(w, "bad gateway", http.StatusBadGateway)
		return
	}
	body, _ := io.ReadAll(r.Body)
	if r.Header.Get("merchant") != cryptomusMerchant || r.Header.Get("sign") != payment.CryptomusSign(body, cryptomusKey) {
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"state":1,"message":"Invalid Sign"}`))
		return
	}
	var req map[string]any
	json.Unmarshal(body, &req)
	f.requests = append(f.requests, req)
	inv := map[string]any{"uuid": "26109ba0-b05b-4ee0-93d1-fd62c822ce95", "order_id": req["order_id"], "amount": "15.99",
		"currency": "EUR", "payment_status": f.status, "url": "https://pay.cryptomus.com/pay/26109ba0", "is_final": false}
	switch r.URL.Path {
	case "/v1/payment":
		inv["amount"], inv["currency"] = req["amount"], req["currency"]
	case "/v1/payment/info":
	default:
		http.NotFound(w, r)
		return
	}
	json.NewEncoder(w).Encode(map[string]any{"state": 0, "result": inv})
}

func cryptomusGateway(f *fakeCryptomus) gatewayFactory {
	return func(store.Backend) order.Gateway {
		return payment.NewCryptomus(payment.CryptomusConfig{Merchant: cryptomusMerchant, APIKey: cryptomusKey, APIURL: f.srv.URL,
			PublicURL: "https://shop.example"})
	}
}

// cryptomusWebhook is a notification as Cryptomus's PHP sends it: json_encode of the fields in
// its order (slashes escaped, unicode raw) with "sign" last.
func cryptomusWebhook(t *testing.T, o order.Order, status, amount string) []byte {
	t.Helper()
	fields := `{"type":"payment","uuid":"26109ba0-b05b-4ee0-93d1-fd62c822ce95","order_id":"` + o.Invoice.ID + `","amount":"` + amount +
		`","payment_amount":"0.00053","payment_amount_usd":"17.10","merchant_amount":"0.00052","commission":"0.00001","is_final":true,` +
		`"status":"` + status + `","from":null,"wallet_address_uuid":null,"network":"btc","currency":"` + o.Invoice.Amount.Currency + `","payer_currency":"BTC",` +
		`"additional_data":"Café – order\/` + o.ID + `","convert":{"to_currency":"USDT","commission":null,"rate":"64000.12","amount":"17.09"},` +
		`"txid":"6f0d9c8374db57cac0d806251473de754f361c83a03cd805f74aa9da3193486b"}`
	body, err := payment.CryptomusSignWebhook([]byte(fields), cryptomusKey)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

func TestCryptomusPHPEncoding(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"slashes escaped, order kept", `{"z":"https://a.b/c","a":1}`, `{"z":"https:\/\/a.b\/c","a":1}`},
		{"unicode raw, escapes decoded", `{"n":"Caf\u00e9 \u2013 ok"}`, `{"n":"Café – ok"}`},
		{"no HTML escaping", `{"h":"<a>&"}`, `{"h":"<a>&"}`},
		{"control characters", "{\"c\":\"a\\nb\\u0001\"}", `{"c":"a\nb\u0001"}`},
		{"line separators escaped", `{"l":"a` + "\u2028" + `b"}`, `{"l":"a\u2028b"}`},
		{"empty object becomes a list", `{"e":{},"l":[]}`, `{"e":[],"l":[]}`},
		{"numeric keys become a list", `{"m":{"0":"x","1":"y"}}`, `{"m":["x","y"]}`},
		{"floats in PHP's shortest form", `{"f":1.50,"g":2.0,"i":10,"s":"1.50"}`, `{"f":1.5,"g":2.0,"i":10,"s":"1.50"}`},
		{"null and booleans", `{"n":null,"t":true,"f":false}`, `{"n":null,"t":true,"f":false}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			signedBody, err := payment.CryptomusSignWebhook([]byte(tc.in), "k")
			if err != nil {
				t.Fatal(err)
			}
			want := strings.TrimSuffix(tc.want, "}") + `,"sign":"` + payment.CryptomusSign([]byte(tc.want), "k") + `"}`
			if string(signedBody) != want {
				t.Fatalf("got  %s\nwant %s", signedBody, want)
			}
		})
	}
}

func TestCryptomusCheckout(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFakeCryptomus(t)
		e := newEnv(t, b, cryptomusGateway(f))
		o := e.mustBuy("cryptomus", 3, "EUR")
		if o.Invoice.PaymentURL != "https://pay.cryptomus.com/pay/26109ba0" {
			t.Fatalf("payment URL = %q", o.Invoice.PaymentURL)
		}
		req := f.requests[0]
		want := map[string]any{
			"order_id": o.Invoice.ID, "amount": "15.99", "currency": "EUR", "lifetime": float64(43200),
			"url_callback": "https://shop.example/checkout/api/payments/cryptomus/webhook",
			"url_return":   "https://shop.example/checkout/waiting?order=" + o.ID,
		}
		for k, v := range want {
			if req[k] != v {
				t.Errorf("%s = %v, want %v", k, req[k], v)
			}
		}
	})
}

func TestCryptomusWebhook(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		cases := []struct {
			name       string
			status     string
			amount     string
			tamper     func([]byte) []byte
			wantStatus int
			wantOrder  order.Status
		}{
			{"paid settles", "paid", "15.99", nil, 200, order.StatusActive},
			{"paid over settles", "paid_over", "15.99", nil, 200, order.StatusActive},
			{"wrong amount is held", "wrong_amount", "15.99", nil, 200, order.StatusFraud},
			{"paid for another amount is held", "paid", "9.99", nil, 200, order.StatusFraud},
			{"still checking waits", "check", "15.99", nil, 200, order.StatusPending},
			{"failed fails", "fail", "15.99", nil, 200, order.StatusFailed},
			{"unescaped slashes still verify", "paid", "15.99", func(b []byte) []byte {
				return []byte(strings.ReplaceAll(string(b), `\/`, `/`))
			}, 200, order.StatusActive},
			{"changed field refused", "paid", "1.00", func(b []byte) []byte {
				return []byte(strings.Replace(string(b), `"amount":"1.00"`, `"amount":"15.99"`, 1))
			}, 400, order.StatusPending},
			{"reordered keys refused", "paid", "15.99", func(b []byte) []byte {
				moved := strings.Replace(string(b), `{"type":"payment",`, `{`, 1)
				return []byte(strings.Replace(moved, `,"sign":`, `,"type":"payment","sign":`, 1))
			}, 400, order.StatusPending},
			{"missing sign refused", "paid", "15.99", func(b []byte) []byte {
				return []byte(string(b[:strings.LastIndex(string(b), `,"sign"`)]) + "}")
			}, 400, order.StatusPending},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				f := newFakeCryptomus(t)
				e := newEnv(t, b, cryptomusGateway(f))
				o := e.mustBuy("cryptomus", 3, "EUR")
				body := cryptomusWebhook(t, o, tc.status, tc.amount)
				if tc.tamper != nil {
					body = tc.tamper(body)
				}
				for range 2 {
					if got := e.post("cryptomus", body, nil); got != tc.wantStatus {
						t.Fatalf("status = %d, want %d\n%s", got, tc.wantStatus, body)
					}
				}
				e.drain()
				if got := e.order(o.ID).Status; got != tc.wantOrder {
					t.Fatalf("order = %s, want %s", got, tc.wantOrder)
				}
			})
		}
	})
}

func TestCryptomusReconcileAfterOutage(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFakeCryptomus(t)
		e := newEnv(t, b, cryptomusGateway(f))
		o := e.mustBuy("cryptomus", 3, "EUR")
		rec := payment.NewReconciler(e.st, []order.Gateway{cryptomusGateway(f)(e.st)}, e.webhooks, e.log, nil)
		f.set(true, "paid")
		if err := rec.Check(t.Context(), o.Invoice.ID); !errors.Is(err, payment.ErrUnavailable) {
			t.Fatalf("check while down: %v", err)
		}
		f.set(false, "paid")
		if err := rec.Check(t.Context(), o.Invoice.ID); err != nil {
			t.Fatal(err)
		}
		e.drain()
		if got := e.order(o.ID); got.Status != order.StatusActive {
			t.Fatalf("order = %s, want active", got.Status)
		}
	})
}
