package payment_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

const coinbaseKeyID, coinbaseWebhookSecret = "3f6a1c2e-8d4b-4c1a-9e7f-0a1b2c3d4e5f", "hook0-subscription-secret"

// cdpTestKey is a CDP secret API key as the portal gives it (secret) and its public half, which
// the fake API verifies request JWTs with.
type cdpTestKey struct {
	alg    string // EdDSA or ES256
	secret string
	public crypto.PublicKey
}

// newCDPKey makes an Ed25519 key (base64 of seed and public key) or an ECDSA P-256 key (SEC 1
// PEM with its newlines escaped, as an environment variable carries it).
func newCDPKey(t *testing.T, alg string) cdpTestKey {
	t.Helper()
	switch alg {
	case "EdDSA":
		pub, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return cdpTestKey{alg: alg, secret: base64.StdEncoding.EncodeToString(priv), public: pub}
	case "ES256":
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		der, err := x509.MarshalECPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		p := pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})
		return cdpTestKey{alg: alg, secret: strings.ReplaceAll(string(p), "\n", `\n`), public: &k.PublicKey}
	}
	t.Fatalf("no key type %s", alg)
	return cdpTestKey{}
}

// fakeCoinbase is the Coinbase Business Checkouts API as its documentation describes it, and
// the Payment Link API it replaces (same request body, answer fields and statuses) for the links
// of invoices made before the switch: every request carries "Authorization: Bearer <JWT>"
// signed by the CDP key (header kid and nonce; claims sub, iss "cdp", nbf and exp two minutes
// apart, uri "METHOD host/path"); POST /api/v1/checkouts with X-Idempotency-Key (a repeat
// answers the same checkout) takes {amount, currency, network, description, expiresAt,
// successRedirectUrl, failRedirectUrl, metadata} and answers 201 and the checkout;
// GET /api/v1/checkouts/{id} reads one; POST /api/v1/checkouts/{id}/deactivate ends an ACTIVE
// one. The same three under /api/v1/payment-links serve links, each API only its own ids.
type fakeCoinbase struct {
	t       *testing.T
	key     cdpTestKey
	mu      sync.Mutex
	down    bool
	res     map[string]map[string]any // checkouts and links by id
	kind    map[string]string         // id → "checkouts" or "payment-links"
	byIdem  map[string]string
	created []map[string]any // create bodies, in order
	calls   []string         // "METHOD path" of every authenticated call
	srv     *httptest.Server
}

func newFakeCoinbase(t *testing.T, key cdpTestKey) *fakeCoinbase {
	f := &fakeCoinbase{t: t, key: key, res: map[string]map[string]any{}, kind: map[string]string{}, byIdem: map[string]string{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeCoinbase) setDown(down bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = down
}

// pay marks a checkout (or link) as the provider would once the buyer paid: status and,
// when total is given, settlement.
func (f *fakeCoinbase) pay(id, status, total string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.res[id]
	c["status"] = status
	if total != "" {
		c["settlement"] = map[string]string{"totalAmount": total, "feeAmount": "0.10", "netAmount": total, "currency": "USDC"}
	}
}

// checkout answers a copy of a checkout (or link) the fake made (the only one when id is "").
func (f *fakeCoinbase) checkout(id string) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id == "" {
		if len(f.res) != 1 {
			f.t.Fatalf("%d checkouts made, want 1", len(f.res))
		}
		for k := range f.res {
			id = k
		}
	}
	out := map[string]any{}
	for k, v := range f.res[id] {
		out[k] = v
	}
	return out
}

// kindOf answers which API made id: "checkouts" or "payment-links".
func (f *fakeCoinbase) kindOf(id string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.kind[id]
}

func (f *fakeCoinbase) fail(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"errorType": typ, "errorMessage": msg})
}

// authorize verifies the request's JWT with the key's public half and checks its claims.
func (f *fakeCoinbase) authorize(r *http.Request) error {
	raw, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return fmt.Errorf("no bearer token")
	}
	tok, err := jwt.Parse(raw, func(tok *jwt.Token) (any, error) { return f.key.public, nil },
		jwt.WithValidMethods([]string{f.key.alg}), jwt.WithIssuer("cdp"), jwt.WithSubject(coinbaseKeyID), jwt.WithExpirationRequired())
	if err != nil {
		return err
	}
	if tok.Header["kid"] != coinbaseKeyID {
		return fmt.Errorf("kid %v", tok.Header["kid"])
	}
	if n, _ := tok.Header["nonce"].(string); len(n) < 16 {
		return fmt.Errorf("nonce %q", n)
	}
	c := tok.Claims.(jwt.MapClaims)
	nbf, _ := c.GetNotBefore()
	exp, _ := c.GetExpirationTime()
	if nbf == nil || exp.Sub(nbf.Time) != 2*time.Minute {
		return fmt.Errorf("nbf %v exp %v: want two minutes apart", nbf, exp)
	}
	if want := r.Method + " " + r.Host + r.URL.Path; c["uri"] != want {
		return fmt.Errorf("uri %v, want %q", c["uri"], want)
	}
	return nil
}

var (
	usdcAmount = regexp.MustCompile(`^[0-9]+\.[0-9]{2}$`)
	resPath    = regexp.MustCompile(`^/api/v1/(checkouts|payment-links)(?:/([0-9a-f]{24})(/deactivate)?)?$`)
)

func (f *fakeCoinbase) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		f.fail(w, http.StatusServiceUnavailable, "service_unavailable", "try later")
		return
	}
	if err := f.authorize(r); err != nil {
		f.fail(w, http.StatusUnauthorized, "unauthorized", err.Error())
		return
	}
	f.calls = append(f.calls, r.Method+" "+r.URL.Path)
	w.Header().Set("Content-Type", "application/json")
	m := resPath.FindStringSubmatch(r.URL.Path)
	if m == nil {
		f.fail(w, http.StatusNotFound, "not_found", "no such path")
		return
	}
	api, id, deactivate := m[1], m[2], m[3] != ""
	if id == "" {
		if r.Method != http.MethodPost {
			f.fail(w, http.StatusMethodNotAllowed, "invalid_request", "method not allowed")
			return
		}
		f.create(w, r, api)
		return
	}
	c := f.res[id]
	if c == nil || f.kind[id] != api {
		f.fail(w, http.StatusNotFound, "not_found", "no such "+api)
		return
	}
	switch {
	case r.Method == http.MethodGet && !deactivate:
		json.NewEncoder(w).Encode(c)
	case r.Method == http.MethodPost && deactivate:
		if c["status"] != "ACTIVE" {
			f.fail(w, http.StatusBadRequest, "invalid_request", "only an ACTIVE checkout can be deactivated")
			return
		}
		c["status"] = "DEACTIVATED"
		json.NewEncoder(w).Encode(c)
	default:
		f.fail(w, http.StatusMethodNotAllowed, "invalid_request", "method not allowed")
	}
}

// create makes a checkout (api "checkouts") or a payment link ("payment-links").
func (f *fakeCoinbase) create(w http.ResponseWriter, r *http.Request, api string) {
	idem := r.Header.Get("X-Idempotency-Key")
	if id, ok := f.byIdem[api+" "+idem]; ok && idem != "" {
		json.NewEncoder(w).Encode(f.res[id])
		return
	}
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		f.fail(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	amount, _ := body["amount"].(string)
	expires, _ := body["expiresAt"].(string)
	if !usdcAmount.MatchString(amount) || body["currency"] != "USDC" || body["network"] == nil {
		f.fail(w, http.StatusBadRequest, "invalid_request", "amount must be a decimal string in USDC on a network")
		return
	}
	if _, err := time.Parse(time.RFC3339, expires); expires != "" && err != nil {
		f.fail(w, http.StatusBadRequest, "invalid_request", "expiresAt must be RFC 3339")
		return
	}
	f.created = append(f.created, body)
	id := fmt.Sprintf("%024x", len(f.res)+0x68f7a946)
	c := map[string]any{
		// The documentation's examples of both APIs give a hosted page under /payment-links/.
		"id": id, "url": "https://payments.coinbase.com/payment-links/pl_" + id, "status": "ACTIVE",
		"amount": amount, "currency": "USDC", "network": body["network"], "address": "0x742d35Cc6634C0532925a3b844Bc454e4438f44e",
		"tokenAddress": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
		"description":  body["description"], "metadata": body["metadata"], "expiresAt": body["expiresAt"],
		"successRedirectUrl": body["successRedirectUrl"], "failRedirectUrl": body["failRedirectUrl"],
		"createdAt": "2026-11-23T10:00:00Z", "updatedAt": "2026-11-23T10:00:00Z",
	}
	f.res[id], f.kind[id] = c, api
	if idem != "" {
		f.byIdem[api+" "+idem] = id
	}
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(c)
}

// hook0Signed is a checkout (or payment link) webhook as Coinbase Business sends it through
// Hook0: the checkout with its eventType, and X-Hook0-Signature over t, the signed header names and values, and the
// body with the subscription's secret, signed at at.
func hook0Signed(checkout map[string]any, eventType, secret string, at time.Time) ([]byte, map[string]string) {
	ev := map[string]any{}
	for k, v := range checkout {
		ev[k] = v
	}
	ev["eventType"] = eventType
	body, _ := json.Marshal(ev)
	h := map[string]string{"Content-Type": "application/json", "X-Event-Id": "evt-" + eventType, "X-Event-Type": eventType}
	names := "content-type x-event-id x-event-type"
	ts := strconv.FormatInt(at.Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "." + names + "." + h["Content-Type"] + "." + h["X-Event-Id"] + "." + h["X-Event-Type"] + "." + string(body)))
	h["X-Hook0-Signature"] = "t=" + ts + ",h=" + names + ",v1=" + hex.EncodeToString(mac.Sum(nil))
	return body, h
}

// legacyLink makes a payment link as the gateway did before it moved to checkouts (the same
// body, under /api/v1/payment-links) and answers it.
func (f *fakeCoinbase) legacyLink(body map[string]any) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := fmt.Sprintf("%024x", len(f.res)+0x5f00aa00)
	l := map[string]any{
		"id": id, "url": "https://payments.coinbase.com/payment-links/pl_" + id, "status": "ACTIVE",
		"amount": body["amount"], "currency": "USDC", "network": body["network"], "metadata": body["metadata"],
		"createdAt": "2026-11-01T10:00:00Z", "updatedAt": "2026-11-01T10:00:00Z",
	}
	f.res[id], f.kind[id] = l, "payment-links"
	return l
}
