// Package whmcs talks to a seller's WHMCS through its External API (POST includes/api.php,
// form-encoded, responsetype=json, an API credential's identifier and secret and the optional
// access key), for Streamcart's WHMCS back end (STREAMCART_BACKEND=whmcs, docs/whmcs.md).
//
// WHMCS's answers are loosely typed: ids and counts come as numbers or strings, a cycle not
// sold is priced "-1.00", "0000-00-00" is no date, an empty collection may be "" and an error
// is HTTP 200 with {"result":"error","message":…}. The Client decodes them into typed values
// (types.go) and maps failures to this package's sentinel errors, so no caller reads WHMCS's
// raw text to decide anything. It never logs, and the credentials appear in no error: they
// travel in the POST body only, never in a URL.
//
// Calls are not retried here: a write such as AddInvoicePayment must never be sent twice
// blindly, and the durable jobs that call WHMCS already retry with backoff after checking.
package whmcs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Sentinel errors; every error of a call wraps one of them in an *Error.
var (
	// ErrInvalidIP: WHMCS refused the shop's address (not on its API IP allow-list); Error.IP is
	// the address WHMCS named.
	ErrInvalidIP = errors.New("whmcs: address not on the API IP allow-list")
	// ErrAuth: the identifier, secret or access key were refused.
	ErrAuth = errors.New("whmcs: authentication failed")
	// ErrPermission: the credential's API role does not allow the action.
	ErrPermission = errors.New("whmcs: action not allowed by the API role")
	// ErrUnavailable: WHMCS could not be reached or did not answer as its API does (network
	// failure, timeout, HTTP 5xx or 429, an HTML page such as maintenance mode, an empty or
	// non-JSON body). Worth retrying later.
	ErrUnavailable = errors.New("whmcs: unavailable")
	// ErrNotFound: the client, order, invoice, service or product named does not exist.
	ErrNotFound = errors.New("whmcs: not found")
	// ErrRefused: WHMCS answered result=error for another reason (Error.Message says which).
	ErrRefused = errors.New("whmcs: refused")
)

// Error is a failed call: the action, the sentinel it wraps, and what WHMCS said (for the
// operator's log; never for a buyer).
type Error struct {
	Action  string
	Kind    error  // one of the sentinels
	Message string // WHMCS's message, or what went wrong; credentials scrubbed
	IP      string // for ErrInvalidIP: the address WHMCS named
}

func (e *Error) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("whmcs: %s: %v", e.Action, e.Kind)
	}
	return fmt.Sprintf("whmcs: %s: %s", e.Action, e.Message)
}

// Unwrap returns the sentinel.
func (e *Error) Unwrap() error { return e.Kind }

// DefaultTimeout bounds every call.
const DefaultTimeout = 15 * time.Second

// MaxAnswer caps an answer's size.
const MaxAnswer = 8 << 20

// Config is how to reach one WHMCS.
type Config struct {
	URL        string // the includes/api.php address; https, or http on loopback only
	Identifier string
	Secret     string
	AccessKey  string // optional: configuration.php's $api_access_key
	Timeout    time.Duration
	// HTTPClient replaces the default client (its Timeout is then its own).
	HTTPClient *http.Client
	// Failed, when set, hears of every failed call (its action and *Error): the shop's metric of
	// WHMCS failures by action. It must not block.
	Failed func(action string, err error)
}

// String hides the credentials from any %v of a Config.
func (c Config) String() string {
	return fmt.Sprintf("whmcs.Config{URL: %q, credentials redacted}", c.URL)
}

// Client calls one WHMCS's API.
type Client struct {
	url       string
	form      url.Values // credentials and responsetype, added to every call
	http      *http.Client
	scrubbing *strings.Replacer
	failed    func(action string, err error)
}

// ErrURL is a URL the client refuses.
var ErrURL = errors.New("whmcs: URL")

// CheckURL accepts an absolute http(s) URL ending in includes/api.php; plain http only on a
// loopback host (the credentials travel in every request's body).
func CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return fmt.Errorf("%w: want an absolute https:// address", ErrURL)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("%w: want no user, query or fragment: credentials go in the settings", ErrURL)
	}
	if !strings.HasSuffix(u.Path, "/includes/api.php") {
		return fmt.Errorf("%w: want the API's address, ending in /includes/api.php", ErrURL)
	}
	if u.Scheme == "http" && !loopback(u.Hostname()) {
		return fmt.Errorf("%w: want https:// (plain http only on this machine: localhost, 127.0.0.1, ::1)", ErrURL)
	}
	return nil
}

func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// New checks cfg and makes a client.
func New(cfg Config) (*Client, error) {
	if err := CheckURL(cfg.URL); err != nil {
		return nil, err
	}
	if cfg.Identifier == "" || cfg.Secret == "" {
		return nil, errors.New("whmcs: an API identifier and secret are required")
	}
	hc := cfg.HTTPClient
	if hc == nil {
		t := cfg.Timeout
		if t <= 0 {
			t = DefaultTimeout
		}
		hc = &http.Client{Timeout: t, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // a redirect (to a login page) is not the API
		}}
	}
	form := url.Values{"identifier": {cfg.Identifier}, "secret": {cfg.Secret}, "responsetype": {"json"}}
	var pairs []string
	for _, s := range []string{cfg.Secret, cfg.Identifier, cfg.AccessKey} {
		if len(s) >= 4 {
			pairs = append(pairs, s, "[redacted]")
		}
	}
	if cfg.AccessKey != "" {
		form.Set("accesskey", cfg.AccessKey) // in the body, never the query: no access log keeps it
	}
	failed := cfg.Failed
	if failed == nil {
		failed = func(string, error) {}
	}
	return &Client{url: cfg.URL, form: form, http: hc, scrubbing: strings.NewReplacer(pairs...), failed: failed}, nil
}

// Call runs action with params and decodes the answer into out (a pointer; nil: none). The
// answer's result and message are checked first: a failure is an *Error wrapping a sentinel.
func (c *Client) Call(ctx context.Context, action string, params url.Values, out any) error {
	err := c.call(ctx, action, params, out)
	if err != nil {
		c.failed(action, err)
	}
	return err
}

func (c *Client) call(ctx context.Context, action string, params url.Values, out any) error {
	form := url.Values{}
	for k, v := range params {
		form[k] = v
	}
	for k, v := range c.form {
		form[k] = v
	}
	form.Set("action", action)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, strings.NewReader(form.Encode()))
	if err != nil {
		return &Error{Action: action, Kind: ErrUnavailable, Message: "cannot make the request"}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	res, err := c.http.Do(req)
	if err != nil {
		return &Error{Action: action, Kind: ErrUnavailable, Message: c.scrub(transportReason(err))}
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, MaxAnswer+1))
	if err != nil {
		return &Error{Action: action, Kind: ErrUnavailable, Message: c.scrub(transportReason(err))}
	}
	if len(body) > MaxAnswer {
		return &Error{Action: action, Kind: ErrUnavailable, Message: fmt.Sprintf("answer over %d bytes", MaxAnswer)}
	}
	var env struct {
		Result  string `json:"result"`
		Message string `json:"message"`
	}
	jsonErr := json.Unmarshal(body, &env)
	msg := c.scrub(env.Message)
	switch {
	case res.StatusCode == http.StatusTooManyRequests || res.StatusCode >= 500:
		return &Error{Action: action, Kind: ErrUnavailable, Message: fmt.Sprintf("HTTP %d", res.StatusCode)}
	case res.StatusCode >= 300 && res.StatusCode < 400:
		return &Error{Action: action, Kind: ErrUnavailable, Message: fmt.Sprintf("HTTP %d redirect: not the API's address", res.StatusCode)}
	case jsonErr != nil || env.Result == "":
		if (res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden) && jsonErr != nil {
			return &Error{Action: action, Kind: ErrAuth, Message: fmt.Sprintf("HTTP %d", res.StatusCode)}
		}
		return &Error{Action: action, Kind: ErrUnavailable, Message: describe(res, body)}
	case strings.EqualFold(env.Result, "success") && res.StatusCode < 300:
		if out == nil {
			return nil
		}
		if err := json.Unmarshal(body, out); err != nil {
			return &Error{Action: action, Kind: ErrUnavailable, Message: "answer not as documented: " + c.scrub(err.Error())}
		}
		return nil
	}
	return &Error{Action: action, Kind: kindOf(res.StatusCode, msg), Message: msg, IP: invalidIP(msg)}
}

// Reason names the sentinel err wraps, for a metric's label: invalid_ip, auth, permission,
// unavailable, not_found, refused; "other" for an error not of a call.
func Reason(err error) string {
	for _, r := range []struct {
		kind error
		name string
	}{{ErrInvalidIP, "invalid_ip"}, {ErrAuth, "auth"}, {ErrPermission, "permission"}, {ErrUnavailable, "unavailable"},
		{ErrNotFound, "not_found"}, {ErrRefused, "refused"}} {
		if errors.Is(err, r.kind) {
			return r.name
		}
	}
	return "other"
}

// kindOf maps a WHMCS error message (and status) to a sentinel.
func kindOf(status int, msg string) error {
	lower := strings.ToLower(msg)
	switch {
	case invalidIP(msg) != "" || strings.HasPrefix(lower, "invalid ip"):
		return ErrInvalidIP
	case strings.Contains(lower, "authentication failed"), strings.Contains(lower, "invalid access key"):
		return ErrAuth
	case strings.Contains(lower, "invalid permissions"), strings.Contains(lower, "not allowed"):
		return ErrPermission
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return ErrAuth
	case strings.Contains(lower, "status not"):
		return ErrRefused // "Order ID not found or Status not Pending": nearly always the status
	case strings.Contains(lower, "not found"):
		return ErrNotFound
	}
	return ErrRefused
}

// invalidIP is the address in "Invalid IP 1.2.3.4", or "".
func invalidIP(msg string) string {
	rest, ok := strings.CutPrefix(strings.TrimSpace(msg), "Invalid IP")
	if !ok {
		return ""
	}
	ip := strings.TrimSpace(rest)
	if net.ParseIP(ip) == nil {
		return ""
	}
	return ip
}

func (c *Client) scrub(s string) string { return c.scrubbing.Replace(s) }

// transportReason is a network failure without its URL.
func transportReason(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "no answer in time"
	}
	return err.Error()
}

// describe says what came instead of the API's JSON, without echoing the page.
func describe(res *http.Response, body []byte) string {
	t := strings.TrimSpace(string(body))
	ct := strings.ToLower(res.Header.Get("Content-Type"))
	switch {
	case t == "":
		return fmt.Sprintf("HTTP %d with an empty answer", res.StatusCode)
	case strings.Contains(ct, "html") || strings.HasPrefix(strings.ToLower(t), "<"):
		return fmt.Sprintf("HTTP %d with an HTML page instead of the API's JSON (maintenance mode, a login page or a firewall?)", res.StatusCode)
	}
	return fmt.Sprintf("HTTP %d with an answer that is not the API's JSON", res.StatusCode)
}
