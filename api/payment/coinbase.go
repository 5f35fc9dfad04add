package payment

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
)

// CoinbaseAPIURL is Coinbase Commerce's API.
const CoinbaseAPIURL = "https://api.commerce.coinbase.com"

// CoinbaseConfig configures crypto payments through Coinbase Commerce charges.
type CoinbaseConfig struct {
	APIKey        string
	WebhookSecret string // the endpoint's shared secret (Settings → Webhook subscriptions)
	APIURL        string // empty: CoinbaseAPIURL
	PublicURL     string
	// SettleOnPending settles on charge:pending (payment seen on chain, not yet confirmed)
	// instead of waiting for charge:confirmed.
	SettleOnPending bool
	HTTPClient      *http.Client
}

// Coinbase is the Coinbase Commerce gateway.
type Coinbase struct {
	cfg  CoinbaseConfig
	refs Refs
}

var (
	_ order.Gateway = (*Coinbase)(nil)
	_ Provider      = (*Coinbase)(nil)
	_ Inquirer      = (*Coinbase)(nil)
)

// NewCoinbase returns the Coinbase Commerce gateway; refs keeps each invoice's charge code.
func NewCoinbase(cfg CoinbaseConfig, refs Refs) *Coinbase {
	if cfg.APIURL == "" {
		cfg.APIURL = CoinbaseAPIURL
	}
	cfg.APIURL = strings.TrimRight(cfg.APIURL, "/")
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	return &Coinbase{cfg: cfg, refs: refs}
}

// Module names the gateway.
func (*Coinbase) Module() string { return "coinbase" }

// coinbaseCharge is the part of a charge we read.
type coinbaseCharge struct {
	ID        string            `json:"id"`
	Code      string            `json:"code"`
	HostedURL string            `json:"hosted_url"`
	Metadata  map[string]string `json:"metadata"`
	Pricing   struct {
		Local struct {
			Amount   string `json:"amount"`
			Currency string `json:"currency"`
		} `json:"local"`
	} `json:"pricing"`
	Timeline []struct {
		Status string `json:"status"`
	} `json:"timeline"`
}

// call sends a Coinbase Commerce API request and decodes {"data": …} into out.
func (c *Coinbase) call(ctx context.Context, method, path string, body any, out any) error {
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
	req.Header.Set("X-CC-Api-Key", c.cfg.APIKey)
	req.Header.Set("X-CC-Version", "2018-03-22")
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		return fmt.Errorf("coinbase %s: %w: %v", path, ErrUnavailable, unwrapURLError(err))
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("coinbase %s: %w: HTTP %d", path, ErrUnavailable, res.StatusCode)
	}
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &env); err != nil || len(env.Data) == 0 {
		return fmt.Errorf("coinbase %s: %w: unreadable answer", path, ErrUnavailable)
	}
	return json.Unmarshal(env.Data, out)
}

// Checkout creates a fixed-price charge for the invoice and returns its hosted page.
func (c *Coinbase) Checkout(ctx context.Context, o order.Order) (string, error) {
	back := absURL(c.cfg.PublicURL, o.PaymentReturnURL())
	name := "Order " + o.ID
	if len(o.Quote.Lines) > 0 {
		name = o.Quote.Lines[0].Label
	}
	var ch coinbaseCharge
	err := c.call(ctx, http.MethodPost, "/charges", map[string]any{
		"name": truncate(name, 100), "description": "Invoice " + o.Invoice.ID, "pricing_type": "fixed_price",
		"local_price":  map[string]string{"amount": money.Format(o.Invoice.Amount.Amount, o.Invoice.Amount.Currency), "currency": o.Invoice.Amount.Currency},
		"metadata":     map[string]string{"invoice_id": o.Invoice.ID, "order_id": o.ID},
		"redirect_url": back, "cancel_url": back,
	}, &ch)
	if err != nil {
		return "", err
	}
	if ch.HostedURL == "" || ch.Code == "" {
		return "", fmt.Errorf("coinbase charge: %w: no hosted_url", ErrUnavailable)
	}
	if err := c.refs.PutRef(ctx, c.Module(), o.Invoice.ID, ch.Code); err != nil {
		return "", fmt.Errorf("coinbase charge: %w", err)
	}
	return ch.HostedURL, nil
}

// Verify checks X-CC-Webhook-Signature: hex HMAC-SHA256 of the raw body with the shared secret.
func (c *Coinbase) Verify(h http.Header, body []byte) error {
	got, err := hex.DecodeString(strings.TrimSpace(h.Get("X-CC-Webhook-Signature")))
	if err != nil || len(got) == 0 {
		return fmt.Errorf("%w: missing or malformed X-CC-Webhook-Signature", ErrBadSignature)
	}
	mac := hmac.New(sha256.New, []byte(c.cfg.WebhookSecret))
	mac.Write(body)
	if !hmac.Equal(got, mac.Sum(nil)) {
		return fmt.Errorf("%w: signature mismatch", ErrBadSignature)
	}
	return nil
}

// Parse reads a charge event.
func (c *Coinbase) Parse(body []byte) (Event, error) {
	var w struct {
		ID    string `json:"id"`
		Event struct {
			ID   string         `json:"id"`
			Type string         `json:"type"`
			Data coinbaseCharge `json:"data"`
		} `json:"event"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return Event{}, fmt.Errorf("%w: %v", ErrBadPayload, err)
	}
	ev := c.chargeEvent(Event{Provider: c.Module(), ID: w.Event.ID, Type: w.Event.Type}, w.Event.Data)
	switch w.Event.Type {
	case "charge:confirmed", "charge:resolved":
		ev.Kind = KindPaid
	case "charge:pending":
		ev.Kind = KindPending
		if c.cfg.SettleOnPending {
			ev.Kind = KindPaid
		}
	case "charge:failed":
		ev.Kind = KindFailed
	default:
		ev.Kind = KindIgnored
	}
	return ev, nil
}

func (c *Coinbase) chargeEvent(ev Event, ch coinbaseCharge) Event {
	ev.InvoiceID = ch.Metadata["invoice_id"]
	ev.TransactionID = ch.Code
	ev.Amount = pricing.Money{Amount: -1, Currency: strings.ToUpper(ch.Pricing.Local.Currency)}
	if n, err := parseDecimal(ch.Pricing.Local.Amount, ch.Pricing.Local.Currency); err == nil {
		ev.Amount.Amount = n
	}
	return ev
}

// Inquire reads the invoice's charge; its last timeline status says where it stands.
func (c *Coinbase) Inquire(ctx context.Context, o order.Order) (Event, error) {
	code, err := c.refs.Ref(ctx, c.Module(), o.Invoice.ID)
	if err != nil {
		return Event{}, err
	}
	var ch coinbaseCharge
	if err := c.call(ctx, http.MethodGet, "/charges/"+url.PathEscape(code), nil, &ch); err != nil {
		return Event{}, err
	}
	status := ""
	if n := len(ch.Timeline); n > 0 {
		status = ch.Timeline[n-1].Status
	}
	ev := c.chargeEvent(Event{Provider: c.Module(), ID: "inquiry:" + code, Type: "charge " + status}, ch)
	switch status {
	case "COMPLETED", "RESOLVED":
		ev.Kind = KindPaid
	case "PENDING":
		ev.Kind = KindPending
		if c.cfg.SettleOnPending {
			ev.Kind = KindPaid
		}
	default:
		ev.Kind = KindPending
	}
	return ev, nil
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
