package faulttest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ChaosPanel is an XUI.one admin API (the community documentation's actions, as the xui adapter
// speaks them) that misbehaves on purpose: it answers a share of the calls with a server error or
// drops the connection unanswered (a timeout, as the adapter sees it), refuses new lines when the
// reseller's credits run out, and, when told (Havoc), loses a line, disables it or changes its
// expiry or connections behind the shop's back. Its randomness comes from one seed, so a failing
// soak can be repeated.
//
// Serve it with httptest and point the shop at URL() with APIKey: STREAMCART_PANEL=xui.
type ChaosPanel struct {
	srv *httptest.Server

	mu       sync.Mutex
	rng      *rand.Rand
	failRate float64 // share of admin calls that fail
	credits  int     // reseller balance: one credit a new line
	nextID   int
	lines    map[string]*ChaosLine // panel id → line
	faults   int                   // calls failed on purpose
}

// ChaosLine is one line as the chaotic panel keeps it.
type ChaosLine struct {
	ID             string
	Username       string
	Password       string
	MaxConnections int
	ExpDate        int64 // unix seconds; 0 never
	Enabled        bool
	Notes          string // "streamcart <service id>", as the adapter writes it
	Bouquets       string // comma-separated bouquet ids
}

// Ref is the service id the adapter wrote in the line's notes ("" when none).
func (l ChaosLine) Ref() string { return strings.TrimPrefix(l.Notes, "streamcart ") }

// APIKey is the api_key the chaotic panel accepts.
const APIKey = "chaos-api-key"

// NewChaosPanel starts a chaotic panel with credits and seed; Close stops it.
func NewChaosPanel(seed uint64, credits int) *ChaosPanel {
	p := &ChaosPanel{rng: rand.New(rand.NewPCG(seed, seed^0x5eed)), credits: credits, nextID: 1000, lines: map[string]*ChaosLine{}}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	return p
}

// URL is the admin API base (STREAMCART_PANEL_URL).
func (p *ChaosPanel) URL() string { return p.srv.URL + "/ACCESS" }

// Close stops the panel.
func (p *ChaosPanel) Close() { p.srv.Close() }

// SetFailRate makes that share (0 to 1) of the admin calls fail from now on.
func (p *ChaosPanel) SetFailRate(r float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failRate = r
}

// SetCredits sets the reseller's balance.
func (p *ChaosPanel) SetCredits(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.credits = n
}

// Credits is the reseller's balance.
func (p *ChaosPanel) Credits() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.credits
}

// Faults is how many calls failed on purpose so far.
func (p *ChaosPanel) Faults() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.faults
}

// Lines is a copy of every line, by username.
func (p *ChaosPanel) Lines() []ChaosLine {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]ChaosLine, 0, len(p.lines))
	for _, l := range p.lines {
		out = append(out, *l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Username < out[j].Username })
	return out
}

// AddForeign makes a line by hand, as the seller would for a friend: no order explains it.
func (p *ChaosPanel) AddForeign(username string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nextID++
	id := strconv.Itoa(p.nextID)
	p.lines[id] = &ChaosLine{ID: id, Username: username, Password: "by-hand", MaxConnections: 1, Enabled: true, Notes: "friend of the seller"}
}

// Havoc kinds: what a hand on the panel did to a line (named as the reconciliation's drift kinds).
const (
	HavocLost        = "missing"
	HavocDisabled    = "disabled"
	HavocExpiry      = "expiry"
	HavocConnections = "connections"
)

// Havoc is one change made behind the shop's back.
type Havoc struct {
	Ref  string // the service id in the line's notes
	Kind string
}

// Havoc changes n lines chosen at random (only lines that are switched on, so each change is a
// drift from an active service's point of view) and reports what it did.
func (p *ChaosPanel) Havoc(n int) []Havoc {
	p.mu.Lock()
	defer p.mu.Unlock()
	var on []*ChaosLine
	for _, l := range p.lines {
		if l.Enabled {
			on = append(on, l)
		}
	}
	sort.Slice(on, func(i, j int) bool { return on[i].ID < on[j].ID }) // map order must not decide
	var out []Havoc
	for range n {
		if len(on) == 0 {
			break
		}
		i := p.rng.IntN(len(on))
		l := on[i]
		on = append(on[:i], on[i+1:]...)
		h := Havoc{Ref: l.Ref()}
		switch p.rng.IntN(4) {
		case 0:
			h.Kind = HavocLost
			delete(p.lines, l.ID)
		case 1:
			h.Kind = HavocDisabled
			l.Enabled = false
		case 2:
			h.Kind = HavocExpiry
			l.ExpDate -= int64(1+p.rng.IntN(20)) * 86400 // a restore brought back an older expiry
		default:
			h.Kind = HavocConnections
			l.MaxConnections += 1 + p.rng.IntN(3)
		}
		out = append(out, h)
	}
	return out
}

func (p *ChaosPanel) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r.URL.Path != "/ACCESS/" {
		http.NotFound(w, r)
		return
	}
	if p.failRate > 0 && p.rng.Float64() < p.failRate {
		p.faults++
		if p.rng.IntN(2) == 0 {
			http.Error(w, "gateway timeout", http.StatusGatewayTimeout)
			return
		}
		// No answer at all: the connection drops as a panel's proxy timing out does.
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
				return
			}
		}
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return
	}
	r.ParseForm()
	ok := func(data any) { json.NewEncoder(w).Encode(map[string]any{"status": "STATUS_SUCCESS", "data": data}) }
	fail := func(msg string) { json.NewEncoder(w).Encode(map[string]any{"status": "STATUS_FAILURE", "error": msg}) }
	if r.URL.Query().Get("api_key") != APIKey {
		fail("Invalid API key")
		return
	}
	l := p.lines[r.PostForm.Get("id")]
	switch r.URL.Query().Get("action") {
	case "user_info":
		ok(map[string]any{"username": "reseller", "credits": strconv.Itoa(p.credits)})
	case "create_line":
		if p.credits < 1 {
			fail("Not enough credits")
			return
		}
		for _, o := range p.lines {
			if o.Username == r.PostForm.Get("username") {
				fail("Username already exists")
				return
			}
		}
		conns, _ := strconv.Atoi(r.PostForm.Get("max_connections"))
		exp, _ := strconv.ParseInt(r.PostForm.Get("exp_date"), 10, 64)
		p.nextID++
		n := &ChaosLine{ID: strconv.Itoa(p.nextID), Username: r.PostForm.Get("username"), Password: r.PostForm.Get("password"),
			MaxConnections: conns, ExpDate: exp, Enabled: true, Notes: r.PostForm.Get("notes"),
			Bouquets: strings.Join(r.PostForm["bouquets_selected[]"], ",")}
		p.lines[n.ID] = n
		p.credits--
		ok(map[string]any{"id": n.ID})
	case "get_lines":
		all := make([]map[string]any, 0, len(p.lines))
		for _, l := range p.lines {
			all = append(all, l.wire())
		}
		ok(all)
	case "get_line":
		if l == nil {
			fail("Line not found")
			return
		}
		ok(l.wire())
	case "edit_line":
		if l == nil {
			fail("Line not found")
			return
		}
		if v := r.PostForm.Get("exp_date"); v != "" {
			l.ExpDate, _ = strconv.ParseInt(v, 10, 64)
		}
		if v := r.PostForm.Get("max_connections"); v != "" {
			l.MaxConnections, _ = strconv.Atoi(v)
		}
		if _, set := r.PostForm["bouquets_selected[]"]; set {
			l.Bouquets = strings.Join(r.PostForm["bouquets_selected[]"], ",")
		}
		ok(nil)
	case "enable_line", "disable_line":
		if l == nil {
			fail("Line not found")
			return
		}
		l.Enabled = r.URL.Query().Get("action") == "enable_line"
		ok(nil)
	case "delete_line":
		if l == nil {
			fail("Line not found")
			return
		}
		delete(p.lines, l.ID)
		ok(nil)
	default:
		fail(fmt.Sprintf("unknown action %q", r.URL.Query().Get("action")))
	}
}

// wire is the line as get_line answers it (XUI.one sends numbers as strings).
func (l *ChaosLine) wire() map[string]any {
	enabled := "0"
	if l.Enabled {
		enabled = "1"
	}
	return map[string]any{"id": l.ID, "username": l.Username, "password": l.Password,
		"max_connections": strconv.Itoa(l.MaxConnections), "exp_date": strconv.FormatInt(l.ExpDate, 10),
		"is_trial": "0", "enabled": enabled, "admin_enabled": "1", "notes": l.Notes,
		"bouquet": "[" + l.Bouquets + "]"}
}

// BouquetIDs is the line's bouquets as numbers, in the order sent.
func (l ChaosLine) BouquetIDs() []int {
	var out []int
	for _, f := range strings.Split(l.Bouquets, ",") {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// Expires is the line's expiry as a time (zero when never).
func (l ChaosLine) Expires() time.Time {
	if l.ExpDate == 0 {
		return time.Time{}
	}
	return time.Unix(l.ExpDate, 0).UTC()
}
