package payment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
)

// CoinbaseAPIURL is Coinbase Business's API (checkouts live under /api/v1/checkouts).
const CoinbaseAPIURL = "https://business.coinbase.com"

// CoinbaseNetwork is the network checkouts take USDC on unless STREAMCART_COINBASE_NETWORK
// names another.
const CoinbaseNetwork = "base"

// coinbaseCurrency is what checkouts are priced in: USDC, a dollar token with 2 decimals in the
// API's amounts ("50.00"), converted from the invoice at the catalog's USD rate.
const coinbaseCurrency = "USDC"

// coinbaseCheckouts is the Checkouts API's path; coinbaseLinks the Payment Link API's, which
// Coinbase asks its users to leave for checkouts (same request body, same answer fields, same
// statuses, events renamed from payment_link.* to checkout.*). Invoices are given checkouts
// now; the links of invoices made before the switch are still read, deactivated and settled.
const (
	coinbaseCheckouts = "/api/v1/checkouts"
	coinbaseLinks     = "/api/v1/payment-links"
)

// checkoutScope is the Refs scope of each invoice's checkout id. A payment link made before the
// switch stays under the module's own scope ("coinbase"), where it always was.
const checkoutScope = "coinbase:checkout"

// Checkout (and payment link) statuses, as the Checkouts API reference lists them: ACTIVE takes
// a payment, PROCESSING is processing one, COMPLETED is paid, FAILED failed on a payment error,
// EXPIRED passed its expiresAt, DEACTIVATED was deactivated (by us, on a cancel); REFUNDED and
// PARTIALLY_REFUNDED follow a refund.
const (
	statusProcessing = "PROCESSING"
	statusCompleted  = "COMPLETED"
	statusFailed     = "FAILED"
	statusExpired    = "EXPIRED"
)

// Webhook event types: the Checkouts API's and, for links made before the switch, the Payment
// Link API's. The documentation names no event for PROCESSING: a notification whose body has
// that status, whatever its eventType, is read as the payment seen (KindProcessing).
const (
	eventCheckoutSuccess = "checkout.payment.success"
	eventCheckoutFailed  = "checkout.payment.failed"
	eventCheckoutExpired = "checkout.payment.expired"

	eventLinkSuccess = "payment_link.payment.success"
	eventLinkFailed  = "payment_link.payment.failed"
	eventLinkExpired = "payment_link.payment.expired"
)

// CoinbaseConfig configures crypto payments through Coinbase Business checkouts.
type CoinbaseConfig struct {
	KeyID         string // the CDP secret API key's id
	KeySecret     string // its secret: Ed25519 (base64) or ECDSA P-256 (PEM)
	WebhookSecret string // the webhook subscription's secret (metadata.secret when created)
	Network       string // empty: CoinbaseNetwork
	APIURL        string // empty: CoinbaseAPIURL
	PublicURL     string
	// Catalog gives the rates: an invoice is converted to USDC at the catalog's USD rate.
	Catalog    func() *catalog.Catalog
	HTTPClient *http.Client
}

// CoinbaseStore keeps each invoice's checkout id (Refs) and its USDC quote (Quotes).
type CoinbaseStore interface {
	Refs
	Quotes
}

// Coinbase is the Coinbase Business checkout gateway (module name kept from Coinbase Commerce,
// which it replaces: catalogs and the widget name it "coinbase").
type Coinbase struct {
	cfg  CoinbaseConfig
	key  cdpKey
	host string // the API's host, as the JWT's uri claim names it
	st   CoinbaseStore
	now  func() time.Time
}

var (
	_ order.Gateway = (*Coinbase)(nil)
	_ order.Expirer = (*Coinbase)(nil)
	_ Provider      = (*Coinbase)(nil)
	_ Inquirer      = (*Coinbase)(nil)
	_ Matcher       = (*Coinbase)(nil)
	_ Quoter        = (*Coinbase)(nil)
)

// NewCoinbase returns the Coinbase Business gateway; st keeps each invoice's checkout and quote.
// A secret that is not a CDP key is an error (ErrBadKey).
func NewCoinbase(cfg CoinbaseConfig, st CoinbaseStore) (*Coinbase, error) {
	if cfg.APIURL == "" {
		cfg.APIURL = CoinbaseAPIURL
	}
	cfg.APIURL = strings.TrimRight(cfg.APIURL, "/")
	u, err := url.Parse(cfg.APIURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("coinbase API URL %q: not an absolute URL", cfg.APIURL)
	}
	if cfg.Network == "" {
		cfg.Network = CoinbaseNetwork
	}
	cfg.Network = strings.ToLower(cfg.Network)
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	key, err := parseCDPKey(cfg.KeyID, cfg.KeySecret)
	if err != nil {
		return nil, err
	}
	return &Coinbase{cfg: cfg, key: key, host: u.Host, st: st, now: time.Now}, nil
}

// Module names the gateway.
func (*Coinbase) Module() string { return "coinbase" }

// coinbaseCheckout is the part of a checkout (or payment link: the same fields) we read; it is
// also the body of their webhooks, which add eventType.
type coinbaseCheckout struct {
	ID         string            `json:"id"`
	URL        string            `json:"url"`
	Status     string            `json:"status"`
	Amount     string            `json:"amount"`
	Currency   string            `json:"currency"`
	Network    string            `json:"network"`
	Metadata   map[string]string `json:"metadata"`
	EventType  string            `json:"eventType"`
	Settlement *struct {
		TotalAmount string `json:"totalAmount"`
	} `json:"settlement"`
}

// call sends one Checkouts (or Payment Link) API request, signed by a JWT of its own, and
// decodes the answer.
func (c *Coinbase) call(ctx context.Context, method, path, idempotencyKey string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.cfg.APIURL+path, rd)
	if err != nil {
		return err
	}
	tok, err := c.key.token(method, c.host, req.URL.Path, c.now())
	if err != nil {
		return fmt.Errorf("coinbase %s: sign request: %w", path, err)
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if idempotencyKey != "" {
		req.Header.Set("X-Idempotency-Key", idempotencyKey)
	}
	res, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		return fmt.Errorf("coinbase %s %s: %w: %v", method, path, ErrUnavailable, unwrapURLError(err))
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if res.StatusCode/100 != 2 {
		var e struct {
			Type    string `json:"errorType"`
			Message string `json:"errorMessage"`
		}
		_ = json.Unmarshal(raw, &e)
		return fmt.Errorf("coinbase %s %s: %w: HTTP %d %s %s", method, path, ErrUnavailable, res.StatusCode, e.Type, truncate(e.Message, 200))
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("coinbase %s %s: %w: unreadable answer", method, path, ErrUnavailable)
	}
	return nil
}

// Checkout makes the Coinbase checkout of an order's invoice.
func (c *Coinbase) Checkout(ctx context.Context, o order.Order) (string, error) {
	label := "Order " + o.ID
	if len(o.Quote.Lines) > 0 {
		label = o.Quote.Lines[0].Label
	}
	return c.CreateCheckout(ctx, o.Invoice, o.ID, label, o.PaymentReturnURL())
}

// CreateCheckout makes the checkout of one invoice (a first order's, or any later invoice of the
// same client) and records its id: it asks the invoice's USDC quote on the configured network,
// expires at the invoice's deadline, sends the buyer back to returnURL (on the public URL)
// whether the payment succeeds or fails, and carries the invoice and order ids. The idempotency
// key is the invoice's, so a retry after a lost answer gets the same checkout.
func (c *Coinbase) CreateCheckout(ctx context.Context, inv order.Invoice, orderID, label, returnURL string) (string, error) {
	q, err := c.quote(ctx, inv)
	if err != nil {
		return "", err
	}
	back := absURL(c.cfg.PublicURL, returnURL)
	body := map[string]any{
		"amount": q.Amount, "currency": q.Currency, "network": q.Network,
		"description": truncate(label+" (invoice "+inv.ID+")", 200),
		"metadata": map[string]string{
			"invoice_id": inv.ID, "order_id": orderID,
			"invoice_amount": money.Format(inv.Amount.Amount, inv.Amount.Currency), "invoice_currency": inv.Amount.Currency,
		},
		"successRedirectUrl": back, "failRedirectUrl": back,
	}
	if !inv.Deadline.IsZero() {
		body["expiresAt"] = inv.Deadline.UTC().Format(time.RFC3339)
	}
	var co coinbaseCheckout
	if err := c.call(ctx, http.MethodPost, coinbaseCheckouts, "streamcart-checkout-"+inv.ID, body, &co); err != nil {
		return "", err
	}
	if co.ID == "" || co.URL == "" {
		return "", fmt.Errorf("coinbase checkout %s: %w: no id or url", inv.ID, ErrUnavailable)
	}
	if co.Amount != "" && (!sameDecimal(co.Amount, q.Amount) || !strings.EqualFold(co.Currency, q.Currency)) {
		return "", fmt.Errorf("coinbase checkout %s: %w: checkout asks %s %s, not %s %s", inv.ID, ErrUnavailable, co.Amount, co.Currency, q.Amount, q.Currency)
	}
	if err := c.st.PutRef(ctx, checkoutScope, inv.ID, co.ID); err != nil {
		return "", fmt.Errorf("coinbase checkout %s: %w", inv.ID, err)
	}
	return co.URL, nil
}

// QuoteCurrency is what Coinbase asks for: every invoice it makes a checkout for has a USDC quote.
func (c *Coinbase) QuoteCurrency() string { return coinbaseCurrency }

// quote converts the invoice's total to USDC at the catalog's USD rate, taken now, when its
// checkout is first made: rate = USD's rate / the invoice currency's rate (both relative to the
// catalog's default currency; USDC counts as one USD), rounded once to cents. The first quote of an
// invoice is stored and kept, so a retried checkout asks the same amount as the first attempt.
func (c *Coinbase) quote(ctx context.Context, inv order.Invoice) (Quote, error) {
	if q, err := c.st.Quote(ctx, inv.ID); err == nil {
		return q, nil
	} else if !errors.Is(err, ErrNotFound) {
		return Quote{}, err
	}
	var cat *catalog.Catalog
	if c.cfg.Catalog != nil {
		cat = c.cfg.Catalog()
	}
	if cat == nil {
		return Quote{}, errors.New("coinbase: no catalog to take the USD rate from")
	}
	usd, ok := cat.Currency("USD")
	if !ok {
		return Quote{}, errors.New("coinbase: the catalog sells no USD, so it has no rate to convert invoices to USDC at: add USD to its currencies")
	}
	from, ok := cat.Currency(inv.Amount.Currency)
	if !ok || from.RateValue().Sign() <= 0 {
		return Quote{}, fmt.Errorf("coinbase: the catalog has no rate for %s", inv.Amount.Currency)
	}
	rate := new(big.Rat).Quo(usd.RateValue(), from.RateValue())
	cents := money.Exchange(inv.Amount.Amount, inv.Amount.Currency, rate, "USD")
	if cents <= 0 {
		return Quote{}, fmt.Errorf("coinbase: invoice %s converts to %d USDC cents", inv.ID, cents)
	}
	return c.st.PutQuote(ctx, Quote{
		InvoiceID: inv.ID, Gateway: c.Module(), Amount: money.Format(cents, "USD"), Currency: coinbaseCurrency,
		Network: c.cfg.Network, Rate: ratText(rate),
		Basis:   fmt.Sprintf("catalog rates: USD %s / %s %s", usd.Rate, from.Code, from.Rate),
		TakenAt: c.now().UTC(),
	})
}

// ratText renders a rate with up to 8 decimals, trailing zeros dropped ("1.08", "0.0072").
func ratText(r *big.Rat) string {
	s := r.FloatString(8)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// sameDecimal reports whether two decimal texts are the same amount ("50.0" and "50.00").
func sameDecimal(a, b string) bool {
	x, ok1 := new(big.Rat).SetString(strings.TrimSpace(a))
	y, ok2 := new(big.Rat).SetString(strings.TrimSpace(b))
	return ok1 && ok2 && x.Cmp(y) == 0
}

// Verify checks X-Hook0-Signature with the subscription's secret.
func (c *Coinbase) Verify(h http.Header, body []byte) error {
	return verifyHook0(h, body, c.cfg.WebhookSecret, c.now())
}

// Parse reads a checkout event, or a payment link event of a link made before the switch. Its
// body is the checkout (or link) and eventType; it carries no event id of its own, so the
// resource id and the event type are the deduplication key: a checkout is paid, fails or
// expires once, and every redelivery of that news is the same event.
func (c *Coinbase) Parse(body []byte) (Event, error) {
	var co coinbaseCheckout
	if err := json.Unmarshal(body, &co); err != nil {
		return Event{}, fmt.Errorf("%w: %v", ErrBadPayload, err)
	}
	if co.ID == "" || co.EventType == "" {
		return Event{}, fmt.Errorf("%w: no checkout id or eventType", ErrBadPayload)
	}
	ev := c.event(Event{Provider: c.Module(), ID: co.ID + ":" + co.EventType, Type: co.EventType}, co)
	switch co.EventType {
	case eventCheckoutSuccess, eventLinkSuccess:
		ev = c.paid(ev, co)
	case eventCheckoutFailed, eventCheckoutExpired, eventLinkFailed, eventLinkExpired:
		ev.Kind = KindFailed
	default:
		ev.Kind = KindIgnored
		if co.Status == statusProcessing {
			ev.Kind = KindProcessing
		}
	}
	return ev, nil
}

func (c *Coinbase) event(ev Event, co coinbaseCheckout) Event {
	ev.InvoiceID = co.Metadata["invoice_id"]
	ev.TransactionID = co.ID // one checkout (or link) pays one invoice
	return ev
}

// paid judges a paid checkout: settled when it took at least its amount in USDC, the amount the
// invoice was quoted (the checkout is matched to the one recorded for the invoice before
// anything settles); held for review when less arrived or in another currency. The settlement
// is then checked as the invoice's own amount, which the checkout's metadata carries.
func (c *Coinbase) paid(ev Event, co coinbaseCheckout) Event {
	took := co.Amount
	if co.Settlement != nil && co.Settlement.TotalAmount != "" {
		took = co.Settlement.TotalAmount
	}
	asked, ok1 := new(big.Rat).SetString(strings.TrimSpace(co.Amount))
	got, ok2 := new(big.Rat).SetString(strings.TrimSpace(took))
	if !strings.EqualFold(co.Currency, coinbaseCurrency) || !ok1 || !ok2 || got.Cmp(asked) < 0 {
		ev.Kind = KindWrongAmount
		ev.Type = fmt.Sprintf("%s: paid %s %s of %s %s", ev.Type, took, co.Currency, co.Amount, coinbaseCurrency)
		// A payment to review, in the link's own units: what arrived against what it asked.
		ev.Amount = money.Money{Amount: minorUnits(got, co.Currency), Currency: strings.ToUpper(co.Currency)}
		ev.Expected = money.Money{Amount: minorUnits(asked, coinbaseCurrency), Currency: coinbaseCurrency}
		ev.Reason = order.ReasonShort
		if !strings.EqualFold(co.Currency, coinbaseCurrency) {
			ev.Reason = order.ReasonCurrency
		}
		return ev
	}
	ev.Kind = KindPaid
	cur := strings.ToUpper(co.Metadata["invoice_currency"])
	ev.Amount = money.Money{Amount: -1, Currency: cur}
	if n, err := parseDecimal(co.Metadata["invoice_amount"], cur); err == nil {
		ev.Amount.Amount = n
	}
	return ev
}

// resource is where an invoice's payment lives at Coinbase: its checkout, or the payment link
// it was given before the switch.
type resource struct{ path, id string }

// resources answers the invoice's checkout and legacy payment link, those it has.
func (c *Coinbase) resources(ctx context.Context, invoiceID string) ([]resource, error) {
	var out []resource
	for _, r := range []struct{ scope, path string }{{checkoutScope, coinbaseCheckouts}, {c.Module(), coinbaseLinks}} {
		id, err := c.st.Ref(ctx, r.scope, invoiceID)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, resource{path: r.path + "/" + url.PathEscape(id), id: id})
	}
	return out, nil
}

// Matches accepts an event only for the checkout (or pre-switch payment link) recorded for its
// invoice: a checkout made elsewhere on the same Coinbase account, whatever invoice its metadata
// names, settles nothing.
func (c *Coinbase) Matches(ctx context.Context, ev Event) error {
	rs, err := c.resources(ctx, ev.InvoiceID)
	if err != nil {
		return err
	}
	if len(rs) == 0 {
		return fmt.Errorf("%w: invoice %s has no checkout", ErrForeignPayment, ev.InvoiceID)
	}
	for _, r := range rs {
		if r.id == ev.TransactionID {
			return nil
		}
	}
	return fmt.Errorf("%w: checkout %s, invoice %s was given %s", ErrForeignPayment, ev.TransactionID, ev.InvoiceID, rs[0].id)
}

// ExpireCheckout deactivates the checkout (and any pre-switch payment link) of a cancelled
// order, so it can no longer be paid. An invoice with neither has nothing to deactivate.
func (c *Coinbase) ExpireCheckout(ctx context.Context, o order.Order) error {
	rs, err := c.resources(ctx, o.Invoice.ID)
	if err != nil {
		return err
	}
	var errs []error
	for _, r := range rs {
		var co coinbaseCheckout
		errs = append(errs, c.call(ctx, http.MethodPost, r.path+"/deactivate", "", nil, &co))
	}
	return errors.Join(errs...)
}

// Inquire reads the invoice's checkout (GET /checkouts/{id}) and, for an invoice given one before
// the switch, its payment link (GET /payment-links/{id}); their status says where the invoice
// stands, judged as their webhooks would be. When it has both, the one furthest on answers
// (paid, then processing, then failed, then waiting).
func (c *Coinbase) Inquire(ctx context.Context, o order.Order) (Event, error) {
	rs, err := c.resources(ctx, o.Invoice.ID)
	if err != nil {
		return Event{}, err
	}
	if len(rs) == 0 {
		return Event{}, fmt.Errorf("coinbase invoice %s: no checkout: %w", o.Invoice.ID, ErrNotFound)
	}
	rank := map[Kind]int{KindPending: 0, KindFailed: 1, KindProcessing: 2, KindWrongAmount: 3, KindPaid: 3}
	var best Event
	for i, r := range rs {
		var co coinbaseCheckout
		if err := c.call(ctx, http.MethodGet, r.path, "", nil, &co); err != nil {
			return Event{}, err
		}
		if co.ID == "" {
			co.ID = r.id
		}
		ev := c.event(Event{Provider: c.Module(), ID: "inquiry:" + r.id, Type: "coinbase " + co.Status}, co)
		switch co.Status {
		case statusCompleted:
			ev = c.paid(ev, co)
		case statusFailed, statusExpired:
			ev.Kind = KindFailed
		case statusProcessing:
			ev.Kind = KindProcessing
		default: // ACTIVE: not paid yet; DEACTIVATED: we ended it, the order is cancelled
			ev.Kind = KindPending
		}
		if i == 0 || rank[ev.Kind] > rank[best.Kind] {
			best = ev
		}
	}
	return best, nil
}

// parseDecimal reads a provider's decimal amount of currency ("15.99", "15.990000" EUR;
// "2078.00" JPY) as minor units; trailing zeros are not precision, other extra decimals are.
func parseDecimal(s, currency string) (int64, error) {
	s = strings.TrimSpace(s)
	if whole, frac, ok := strings.Cut(s, "."); ok {
		frac = strings.TrimRight(frac, "0")
		s = whole
		if frac != "" {
			s += "." + frac
		}
	}
	return money.Parse(s, currency)
}

// minorUnits is a decimal amount (nil: unreadable, 0) in minor units of currency, rounded once.
func minorUnits(r *big.Rat, currency string) int64 {
	if r == nil {
		return 0
	}
	digits, ok := money.Digits(currency)
	if !ok {
		digits = 2 // USDC, as Coinbase writes it
	}
	return money.Round(new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits)), nil))))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// unwrapURLError drops the URL from a transport error: it may carry a key in its query.
func unwrapURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}
