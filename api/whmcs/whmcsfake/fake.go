// Package whmcsfake is a stateful fake WHMCS External API, made from WHMCS's documented request
// and answer shapes (developer-docs api-reference/*.md; see docs/whmcs.md and the research in
// shared/reference/whmcs.md), for tests and for `make run-whmcs`. WHMCS is proprietary: no real
// one runs here.
//
// It serves POST includes/api.php, form-encoded, with responsetype=json: it checks the
// identifier and secret (and the access key when one is set), dispatches on action against its
// memory (clients, products, orders, invoices, transactions, services, promotions) and answers
// with WHMCS's quirks: ids and counts as strings where the documentation shows strings,
// "serviceids":"1,2", "-1.00" for a cycle not sold, "0000-00-00" for no date,
// "transactions":"" when there are none, errors as HTTP 200 {"result":"error","message":…}.
// On request it answers 403 Invalid IP, an HTML maintenance page, a 5xx, or an action's error.
//
// Its module is a stand-in for the seller's IPTV module: creating an account gives the service
// a username and password; suspend, unsuspend, terminate and change-package move its status and
// options; RunCron is WHMCS's cron (renewal invoices, overdue suspension).
package whmcsfake

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// Path is where WHMCS serves its API.
const Path = "/includes/api.php"

// Fake is a fake WHMCS. Its zero value is not usable: New makes one.
type Fake struct {
	mu   sync.Mutex
	now  func() time.Time
	seed Seed

	clients      []*client
	orders       []*order
	invoices     []*invoice
	transactions []*transaction
	services     []*service
	promotions   []*Promotion
	upgrades     []*upgrade
	module       []ModuleCall
	sso          int

	calls []Call

	// faults
	invalidIP   string
	maintenance bool
	status      int
	failures    map[string]string
	delay       time.Duration
	flatCurr    bool

	stateFile string // Open's: the records are written there after each call
}

// Call is one API request the fake answered, without its credentials.
type Call struct {
	Action string
	Params url.Values
}

// Option changes a new Fake.
type Option func(*Fake)

// WithClock makes the fake read time from now (dates of orders, invoices, due dates, cron).
func WithClock(now func() time.Time) Option { return func(f *Fake) { f.now = now } }

// New makes a fake WHMCS holding seed.
func New(seed Seed, opts ...Option) *Fake {
	f := &Fake{seed: seed, now: time.Now, failures: map[string]string{}}
	for _, o := range opts {
		o(f)
	}
	for i := range seed.Promotions {
		p := seed.Promotions[i]
		f.promotions = append(f.promotions, &p)
	}
	for _, c := range seed.Clients {
		f.addClient(c.FirstName, c.LastName, c.Email, c.Password, c.Country, f.currency(c.Currency).ID, "")
	}
	return f
}

// SetInvalidIP makes every API call answer 403 {"result":"error","message":"Invalid IP ip"}, as
// WHMCS does for an address outside its API IP allow-list; "" lifts it.
func (f *Fake) SetInvalidIP(ip string) { f.mu.Lock(); f.invalidIP = ip; f.mu.Unlock() }

// SetMaintenance makes every call answer WHMCS's HTML maintenance page with HTTP 200.
func (f *Fake) SetMaintenance(on bool) { f.mu.Lock(); f.maintenance = on; f.mu.Unlock() }

// SetStatus makes every call answer HTTP code (a 5xx, 429) with an empty body; 0 lifts it.
func (f *Fake) SetStatus(code int) { f.mu.Lock(); f.status = code; f.mu.Unlock() }

// SetDelay makes every call wait d before answering (a slow WHMCS, past a client's timeout).
func (f *Fake) SetDelay(d time.Duration) { f.mu.Lock(); f.delay = d; f.mu.Unlock() }

// Fail makes action answer {"result":"error","message":message} until Fail(action, "").
func (f *Fake) Fail(action, message string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if message == "" {
		delete(f.failures, action)
		return
	}
	f.failures[action] = message
}

// SetFlatCurrencies makes GetCurrencies answer in the flattened form of the documentation's
// example ("currencies[currency][0][id]": "1", …) instead of the nested one.
func (f *Fake) SetFlatCurrencies(on bool) { f.mu.Lock(); f.flatCurr = on; f.mu.Unlock() }

// Calls are the API calls answered so far, oldest first.
func (f *Fake) Calls() []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// CallCount is how many times action was answered.
func (f *Fake) CallCount(action string) int {
	n := 0
	for _, c := range f.Calls() {
		if c.Action == action {
			n++
		}
	}
	return n
}

// Handler serves the API at Path (and only there).
func (f *Fake) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(Path, f.serveAPI)
	return mux
}

// maintenancePage is what WHMCS shows while an admin has turned maintenance mode on.
const maintenancePage = `<!DOCTYPE html>
<html><head><title>Down for Maintenance</title></head>
<body><h1>Down for Maintenance</h1><p>We are currently performing maintenance and will be back shortly.</p></body></html>
`

func (f *Fake) serveAPI(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	delay, status, maintenance, invalidIP := f.delay, f.status, f.maintenance, f.invalidIP
	f.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	switch {
	case status != 0:
		w.WriteHeader(status)
		return
	case maintenance:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, maintenancePage)
		return
	case invalidIP != "":
		writeJSON(w, http.StatusForbidden, errorAnswer("Invalid IP "+invalidIP))
		return
	}
	if r.Method != http.MethodPost {
		writeJSON(w, http.StatusOK, errorAnswer("Invalid request method"))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusOK, errorAnswer("Invalid request"))
		return
	}
	form := r.PostForm
	id, secret := form.Get("identifier"), form.Get("secret")
	if id == "" && secret == "" { // the pair may also come as username/password
		id, secret = form.Get("username"), form.Get("password")
	}
	creds := f.seed.Credentials
	if id != creds.Identifier || secret != creds.Secret || (creds.AccessKey != "" && form.Get("accesskey") != creds.AccessKey) {
		writeJSON(w, http.StatusOK, errorAnswer("Authentication Failed"))
		return
	}
	if form.Get("responsetype") != "json" {
		// WHMCS's default answer is name=value pairs; Streamcart asks for JSON only.
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "result=error;message=responsetype json expected (the fake speaks JSON only);")
		return
	}
	action := form.Get("action")
	params := url.Values{}
	for k, v := range form {
		switch k {
		case "identifier", "secret", "username", "password", "accesskey", "action", "responsetype":
			continue
		}
		params[k] = v
	}
	f.mu.Lock()
	f.calls = append(f.calls, Call{Action: action, Params: params})
	msg, failing := f.failures[action]
	var answer map[string]any
	if failing {
		answer = errorAnswer(msg)
	} else if h, ok := actions[action]; ok {
		answer = h(f, params)
	} else {
		answer = errorAnswer("Command Not Found")
	}
	if err := f.save(); err != nil {
		answer = errorAnswer(err.Error()) // as a WHMCS whose database failed
	}
	f.mu.Unlock()
	writeJSON(w, http.StatusOK, answer)
}

func errorAnswer(msg string) map[string]any { return map[string]any{"result": "error", "message": msg} }

func success(kv ...any) map[string]any {
	m := map[string]any{"result": "success"}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// today and stamp are the fake's dates as WHMCS writes them.
func (f *Fake) today() string { return f.now().UTC().Format(time.DateOnly) }
func (f *Fake) stamp() string { return f.now().UTC().Format(time.DateTime) }

// noDate is WHMCS's "no date".
const noDate = "0000-00-00"

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func (f *Fake) currency(code string) Currency {
	for _, c := range f.seed.Currencies {
		if strings.EqualFold(c.Code, code) {
			return c
		}
	}
	for _, c := range f.seed.Currencies {
		if c.Default {
			return c
		}
	}
	return Currency{}
}

func (f *Fake) currencyByID(id int) Currency {
	for _, c := range f.seed.Currencies {
		if c.ID == id {
			return c
		}
	}
	return f.currency("")
}
