package payment

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
)

// CryptomusAPIURL is Cryptomus's API.
const CryptomusAPIURL = "https://api.cryptomus.com"

// Cryptomus bounds an invoice's lifetime to 5 minutes … 12 hours.
const (
	cryptomusMinLifetime = 300
	cryptomusMaxLifetime = 43200
)

// CryptomusConfig configures crypto payments through Cryptomus invoices.
type CryptomusConfig struct {
	Merchant   string // merchant uuid
	APIKey     string // payment API key: signs requests and verifies webhooks
	APIURL     string // empty: CryptomusAPIURL
	PublicURL  string // webhook (url_callback) and return URLs are built on it
	HTTPClient *http.Client
}

// Cryptomus is the Cryptomus gateway.
type Cryptomus struct {
	cfg CryptomusConfig
	now func() time.Time
}

var (
	_ order.Gateway = (*Cryptomus)(nil)
	_ Provider      = (*Cryptomus)(nil)
	_ Inquirer      = (*Cryptomus)(nil)
)

// NewCryptomus returns the Cryptomus gateway.
func NewCryptomus(cfg CryptomusConfig) *Cryptomus {
	if cfg.APIURL == "" {
		cfg.APIURL = CryptomusAPIURL
	}
	cfg.APIURL = strings.TrimRight(cfg.APIURL, "/")
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	return &Cryptomus{cfg: cfg, now: time.Now}
}

// Module names the gateway.
func (*Cryptomus) Module() string { return "cryptomus" }

// CryptomusSign is Cryptomus's signature of a JSON body: hex md5(base64(body) + API key).
func CryptomusSign(body []byte, apiKey string) string {
	sum := md5.Sum([]byte(base64.StdEncoding.EncodeToString(body) + apiKey))
	return hex.EncodeToString(sum[:])
}

// cryptomusInvoice is the part of an invoice (API answer or webhook) we read.
type cryptomusInvoice struct {
	UUID     string `json:"uuid"`
	OrderID  string `json:"order_id"`
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
	// What the buyer actually paid (webhooks): in USD, and in the payer's currency.
	PaymentAmountUSD string `json:"payment_amount_usd"`
	PaymentAmount    string `json:"payment_amount"`
	PayerCurrency    string `json:"payer_currency"`
	Status           string `json:"status"`         // webhooks
	PaymentStatus    string `json:"payment_status"` // API answers
	URL              string `json:"url"`
	TxID             string `json:"txid"`
}

// call POSTs a signed request and decodes {"state":0,"result":…} into out.
func (c *Cryptomus) call(ctx context.Context, path string, body any, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.APIURL+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("merchant", c.cfg.Merchant)
	req.Header.Set("sign", CryptomusSign(b, c.cfg.APIKey))
	res, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		return fmt.Errorf("cryptomus %s: %w: %v", path, ErrUnavailable, unwrapURLError(err))
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	var env struct {
		State   *int            `json:"state"`
		Result  json.RawMessage `json:"result"`
		Message string          `json:"message"`
	}
	if res.StatusCode/100 != 2 || json.Unmarshal(raw, &env) != nil || env.State == nil || *env.State != 0 {
		return fmt.Errorf("cryptomus %s: %w: HTTP %d %s", path, ErrUnavailable, res.StatusCode, truncate(env.Message, 200))
	}
	return json.Unmarshal(env.Result, out)
}

// Checkout creates an invoice whose order_id is ours (a repeat returns the same invoice) and
// returns its payment page. Its lifetime runs to our deadline, within Cryptomus's 12-hour cap.
func (c *Cryptomus) Checkout(ctx context.Context, o order.Order) (string, error) {
	back := absURL(c.cfg.PublicURL, o.PaymentReturnURL())
	lifetime := int(math.Ceil(o.Invoice.Deadline.Sub(c.now()).Seconds()))
	lifetime = min(max(lifetime, cryptomusMinLifetime), cryptomusMaxLifetime)
	var inv cryptomusInvoice
	err := c.call(ctx, "/v1/payment", map[string]any{
		"amount": money.Format(o.Invoice.Amount.Amount, o.Invoice.Amount.Currency), "currency": o.Invoice.Amount.Currency,
		"order_id": o.Invoice.ID, "url_callback": absURL(c.cfg.PublicURL, WebhookPath(c.Module())),
		"url_return": back, "url_success": back, "lifetime": lifetime, "additional_data": o.ID,
	}, &inv)
	if err != nil {
		return "", err
	}
	if inv.URL == "" {
		return "", fmt.Errorf("cryptomus invoice: %w: no url", ErrUnavailable)
	}
	return inv.URL, nil
}

// Verify checks the "sign" field of a webhook body as Cryptomus computes it: PHP's
// json_encode(body without sign, JSON_UNESCAPED_UNICODE), base64, API key appended, md5 — in
// constant time.
func (c *Cryptomus) Verify(_ http.Header, body []byte) error {
	want, rest, err := cryptomusUnsigned(body)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBadSignature, err)
	}
	got := CryptomusSign(rest, c.cfg.APIKey)
	if subtle.ConstantTimeCompare([]byte(strings.ToLower(want)), []byte(got)) != 1 {
		return fmt.Errorf("%w: signature mismatch", ErrBadSignature)
	}
	return nil
}

// CryptomusSignWebhook signs a webhook body the way Cryptomus does and returns it with its
// "sign" field (last, as Cryptomus sends it). body must be a JSON object without "sign".
func CryptomusSignWebhook(body []byte, apiKey string) ([]byte, error) {
	v, err := decodeOrdered(body)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(object)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	rest := phpJSON(obj)
	return phpJSON(append(obj, member{"sign", CryptomusSign(rest, apiKey)})), nil
}

// cryptomusUnsigned splits a webhook body into its sign and the PHP encoding of the rest.
func cryptomusUnsigned(body []byte) (string, []byte, error) {
	v, err := decodeOrdered(body)
	if err != nil {
		return "", nil, err
	}
	obj, ok := v.(object)
	if !ok {
		return "", nil, errors.New("not a JSON object")
	}
	sign := ""
	rest := make(object, 0, len(obj))
	for _, m := range obj {
		if m.key == "sign" {
			s, _ := m.value.(string)
			sign = s
			continue
		}
		rest = append(rest, m)
	}
	if sign == "" {
		return "", nil, errors.New("no sign field")
	}
	return sign, phpJSON(rest), nil
}

// Parse reads an invoice webhook. Cryptomus sends no event id: the invoice and its status
// name the event, so a retried notification deduplicates and a new status does not.
func (c *Cryptomus) Parse(body []byte) (Event, error) {
	var inv cryptomusInvoice
	if err := json.Unmarshal(body, &inv); err != nil {
		return Event{}, fmt.Errorf("%w: %v", ErrBadPayload, err)
	}
	if inv.UUID == "" || inv.Status == "" {
		return Event{}, fmt.Errorf("%w: no uuid or status", ErrBadPayload)
	}
	return c.invoiceEvent(Event{Provider: c.Module(), ID: inv.UUID + ":" + inv.Status, Type: inv.Status}, inv, inv.Status), nil
}

func (c *Cryptomus) invoiceEvent(ev Event, inv cryptomusInvoice, status string) Event {
	ev.InvoiceID = inv.OrderID
	ev.TransactionID = inv.UUID
	ev.Amount = money.Money{Amount: -1, Currency: strings.ToUpper(inv.Currency)}
	if n, err := parseDecimal(inv.Amount, inv.Currency); err == nil {
		ev.Amount.Amount = n
	}
	switch status {
	case "paid", "paid_over":
		ev.Kind = KindPaid
	case "wrong_amount":
		// Cryptomus's status for less than the invoice's amount: a payment to review of what
		// arrived (in USD as Cryptomus counts it, else in the payer's currency) against the invoice.
		ev.Kind, ev.Reason, ev.Expected = KindWrongAmount, order.ReasonShort, ev.Amount
		ev.Amount = money.Money{Currency: "USD"}
		if r, ok := new(big.Rat).SetString(strings.TrimSpace(inv.PaymentAmountUSD)); ok {
			ev.Amount.Amount = minorUnits(r, "USD")
		} else if r, ok := new(big.Rat).SetString(strings.TrimSpace(inv.PaymentAmount)); ok && money.Known(inv.PayerCurrency) {
			ev.Amount = money.Money{Amount: minorUnits(r, inv.PayerCurrency), Currency: strings.ToUpper(inv.PayerCurrency)}
		}
	case "fail", "system_fail":
		ev.Kind = KindFailed
	case "cancel":
		ev.Kind = KindIgnored // expired unpaid: our own deadline cancels the order
	default: // check, process, confirm_check, wrong_amount_waiting, refund_*, locked
		ev.Kind = KindPending
	}
	return ev
}

// Inquire reads the invoice by our order_id (POST /v1/payment/info).
func (c *Cryptomus) Inquire(ctx context.Context, o order.Order) (Event, error) {
	var inv cryptomusInvoice
	if err := c.call(ctx, "/v1/payment/info", map[string]string{"order_id": o.Invoice.ID}, &inv); err != nil {
		return Event{}, err
	}
	return c.invoiceEvent(Event{Provider: c.Module(), ID: "inquiry:" + inv.UUID, Type: inv.PaymentStatus}, inv, inv.PaymentStatus), nil
}

// object is a JSON object with its members in document order (PHP arrays keep order).
type object []member

type member struct {
	key   string
	value any // object, []any, string, json.Number, bool or nil
}

// decodeOrdered decodes JSON keeping object member order and number literals.
func decodeOrdered(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := object{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				obj = append(obj, member{kt.(string), v})
			}
			_, err := dec.Token()
			return obj, err
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token()
			return arr, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil
	}
}

// phpJSON encodes v as PHP's json_encode($v, JSON_UNESCAPED_UNICODE) does after
// json_decode($body, true): members in order, "/" escaped as "\/", non-ASCII left raw but
// U+2028/U+2029 escaped, no HTML escaping, empty or list-like objects as arrays, floats in
// PHP's shortest form.
func phpJSON(v any) []byte {
	var b bytes.Buffer
	phpEncode(&b, v)
	return b.Bytes()
}

func phpEncode(b *bytes.Buffer, v any) {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case json.Number:
		b.WriteString(phpNumber(t))
	case string:
		phpString(b, t)
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			phpEncode(b, e)
		}
		b.WriteByte(']')
	case object:
		if isList(t) { // PHP turns {} and {"0":…,"1":…} into lists
			arr := make([]any, len(t))
			for i, m := range t {
				arr[i] = m.value
			}
			phpEncode(b, arr)
			return
		}
		b.WriteByte('{')
		for i, m := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			phpString(b, m.key)
			b.WriteByte(':')
			phpEncode(b, m.value)
		}
		b.WriteByte('}')
	}
}

func isList(o object) bool {
	for i, m := range o {
		if m.key != strconv.Itoa(i) {
			return false
		}
	}
	return true
}

// phpNumber keeps integers as written and re-encodes floats as PHP 7.1+ does
// (serialize_precision -1: shortest round-trip form, ".0" on integral values).
func phpNumber(n json.Number) string {
	s := n.String()
	if !strings.ContainsAny(s, ".eE") {
		return s
	}
	f, err := n.Float64()
	if err != nil {
		return s
	}
	if a := math.Abs(f); a >= 1e15 || (a != 0 && a < 1e-4) {
		// PHP writes 1.0e+25 and 1.5e-5: a mantissa with a point, an exponent without padding.
		mant, exp, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
		if !strings.Contains(mant, ".") {
			mant += ".0"
		}
		sign, digits := exp[:1], strings.TrimLeft(exp[1:], "0")
		return mant + "e" + sign + digits
	}
	out := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(out, ".") {
		out += ".0"
	}
	return out
}

func phpString(b *bytes.Buffer, s string) {
	const hexDigits = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '/':
			b.WriteString(`\/`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\u2028':
			b.WriteString(`\u2028`)
		case '\u2029':
			b.WriteString(`\u2029`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[r>>4])
				b.WriteByte(hexDigits[r&0xf])
				continue
			}
			if r == utf8.RuneError {
				b.WriteString(`\ufffd`)
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
