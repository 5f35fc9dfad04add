package panel_test

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/provision"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

const xuiKey = "xui-api-key"

// fakePanel answers both admin APIs as their community documentation describes them:
// XUI.one at /ACCESS/?api_key=…&action=…, Xtream UI at /api.php?action=user|stb&sub=….
// Players fetch /get.php?username=&password=.
type fakePanel struct {
	mu     sync.Mutex
	down   bool
	nextID int
	lines  map[string]map[string]string // id → fields
	srv    *httptest.Server
}

func newFakePanel(t *testing.T) *fakePanel {
	f := &fakePanel{nextID: 100, lines: map[string]map[string]string{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakePanel) setDown(down bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = down
}

func (f *fakePanel) line(id string) map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lines[id]
}

func (f *fakePanel) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		http.Error(w, "maintenance", http.StatusServiceUnavailable)
		return
	}
	r.ParseForm()
	switch {
	case r.URL.Path == "/get.php":
		for _, l := range f.lines {
			if l["username"] == r.FormValue("username") && l["password"] == r.FormValue("password") && l["enabled"] == "1" {
				w.Write([]byte("#EXTM3U\n#EXTINF:-1 tvg-id=\"\" tvg-name=\"News\" tvg-logo=\"\" group-title=\"News\",News\nhttp://x/live/1.ts\n"))
				return
			}
		}
		http.Error(w, "", http.StatusForbidden)
	case r.URL.Path == "/ACCESS/":
		f.xui(w, r)
	case r.URL.Path == "/api.php":
		f.xtream(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (f *fakePanel) create(fields map[string]string) (string, bool) {
	for _, l := range f.lines {
		if l["username"] == fields["username"] {
			return "", false
		}
	}
	f.nextID++
	id := strconv.Itoa(f.nextID)
	fields["id"], fields["enabled"] = id, "1"
	f.lines[id] = fields
	return id, true
}

func (f *fakePanel) xui(w http.ResponseWriter, r *http.Request) {
	ok := func(data any) { json.NewEncoder(w).Encode(map[string]any{"status": "STATUS_SUCCESS", "data": data}) }
	fail := func(msg string) { json.NewEncoder(w).Encode(map[string]any{"status": "STATUS_FAILURE", "error": msg}) }
	if r.URL.Query().Get("api_key") != xuiKey {
		fail("Invalid API key")
		return
	}
	l := f.lines[r.FormValue("id")]
	switch r.URL.Query().Get("action") {
	case "create_line", "create_mag":
		fields := map[string]string{}
		for _, k := range []string{"username", "password", "max_connections", "exp_date", "is_trial", "mac", "notes"} {
			fields[k] = r.PostForm.Get(k)
		}
		fields["bouquets"] = strings.Join(r.PostForm["bouquets_selected[]"], ",")
		id, created := f.create(fields)
		if !created {
			fail("Username already exists")
			return
		}
		ok(map[string]any{"id": id})
	case "get_line":
		if l == nil {
			fail("Line not found")
			return
		}
		ok(l)
	case "get_lines":
		all := []map[string]string{}
		for _, l := range f.lines {
			all = append(all, l)
		}
		ok(all)
	case "edit_line":
		for _, k := range []string{"exp_date", "max_connections"} {
			if v := r.PostForm.Get(k); v != "" && l != nil {
				l[k] = v
			}
		}
		if b, set := r.PostForm["bouquets_selected[]"]; set && l != nil {
			l["bouquets"] = strings.Join(b, ",")
		}
		ok(nil)
	case "enable_line", "disable_line":
		l["enabled"] = map[bool]string{true: "1", false: "0"}[r.URL.Query().Get("action") == "enable_line"]
		ok(nil)
	case "delete_line":
		delete(f.lines, r.FormValue("id"))
		ok(nil)
	case "edit_mag":
		if l == nil || l["mac"] == "" {
			fail("Device not found")
			return
		}
		l["mac"] = r.PostForm.Get("mac")
		ok(nil)
	default:
		fail("unknown action")
	}
}

func (f *fakePanel) xtream(w http.ResponseWriter, r *http.Request) {
	answer := func(v map[string]any) { json.NewEncoder(w).Encode(v) }
	q := r.URL.Query()
	l := f.lines[r.FormValue("user_id")]
	switch q.Get("action") + "/" + q.Get("sub") {
	case "user/create", "stb/create":
		fields := map[string]string{}
		for _, k := range []string{"username", "password", "max_connections", "exp_date", "is_trial", "bouquet", "mac"} {
			fields[k] = r.PostForm.Get("user_data[" + k + "]")
		}
		id, created := f.create(fields)
		if !created {
			answer(map[string]any{"result": false, "error": "EXISTS"})
			return
		}
		answer(map[string]any{"result": true, "created_id": id})
	case "user/info":
		if l == nil {
			answer(map[string]any{"result": false})
			return
		}
		info := map[string]any{}
		for k, v := range l {
			info[k] = v
		}
		info["admin_enabled"] = l["enabled"]
		delete(info, "enabled")
		answer(map[string]any{"result": true, "user_info": info})
	case "user/edit":
		for _, k := range []string{"exp_date", "max_connections", "bouquet"} {
			if v := r.PostForm.Get("user_data[" + k + "]"); v != "" {
				l[k] = v
			}
		}
		answer(map[string]any{"result": true})
	case "user/enable", "user/disable":
		l["enabled"] = map[bool]string{true: "1", false: "0"}[q.Get("sub") == "enable"]
		answer(map[string]any{"result": true})
	case "user/delete":
		delete(f.lines, r.FormValue("user_id"))
		answer(map[string]any{"result": true})
	case "stb/edit":
		if l == nil || l["mac"] == "" {
			answer(map[string]any{"result": false, "error": "NOT_FOUND"})
			return
		}
		l["mac"] = r.PostForm.Get("user_data[mac]")
		answer(map[string]any{"result": true})
	default:
		answer(map[string]any{"result": false, "error": "unknown"})
	}
}

func newXtream(t *testing.T, b storetest.Backend, f *fakePanel, flavor string) (*panel.Xtream, store.Backend) {
	t.Helper()
	st := b.Open(t)
	base := f.srv.URL
	if flavor == panel.FlavorXUI {
		base += "/ACCESS"
	}
	x, err := panel.NewXtream(panel.XtreamConfig{Flavor: flavor, URL: base, APIKey: xuiKey,
		Hostname: strings.TrimPrefix(f.srv.URL, "http://")}, st)
	if err != nil {
		t.Fatal(err)
	}
	return x, st
}

func TestXtreamLineLifecycle(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		for _, flavor := range []string{panel.FlavorXUI, panel.FlavorXtream} {
			t.Run(flavor, func(t *testing.T) {
				f := newFakePanel(t)
				x, st := newXtream(t, b, f, flavor)
				ctx := t.Context()
				exp := time.Date(2027, 1, 2, 3, 4, 5, 0, time.UTC)
				in := panel.Line{Ref: "svc_1", Username: "sc12345678", Password: "123456789012", MaxConnections: 2,
					ExpiresAt: exp, Trial: true, Bouquets: []int{1, 3}, Enabled: true}
				got, err := x.CreateLine(ctx, in)
				if err != nil {
					t.Fatal(err)
				}
				if got.Username != in.Username || got.Password != in.Password || got.MaxConnections != 2 || !got.ExpiresAt.Equal(exp) || !got.Trial || !got.Enabled {
					t.Fatalf("created %+v", got)
				}
				id, _ := st.Ref(ctx, "panel:"+flavor, "svc_1")
				fields := f.line(id)
				wantBouquets := map[string]string{panel.FlavorXUI: "1,3", panel.FlavorXtream: "[1,3]"}[flavor]
				if fields["bouquets"]+fields["bouquet"] != wantBouquets {
					t.Fatalf("bouquets sent = %q, want %q", fields["bouquets"]+fields["bouquet"], wantBouquets)
				}
				// Idempotent by ref: a repeat creates nothing.
				if _, err := x.CreateLine(ctx, in); err != nil || len(f.lines) != 1 {
					t.Fatalf("repeat: %v, %d lines", err, len(f.lines))
				}
				// Another ref with the same username: the provisioner must draw another name.
				if _, err := x.CreateLine(ctx, panel.Line{Ref: "svc_2", Username: in.Username, Password: "x", MaxConnections: 1}); !errors.Is(err, panel.ErrUsernameTaken) {
					t.Fatalf("taken username: %v", err)
				}
				later := exp.AddDate(0, 1, 0)
				if err := x.Extend(ctx, "svc_1", later); err != nil {
					t.Fatal(err)
				}
				if err := x.SetMaxConnections(ctx, "svc_1", 4); err != nil {
					t.Fatal(err)
				}
				if err := x.SetEnabled(ctx, "svc_1", false); err != nil {
					t.Fatal(err)
				}
				got, _ = x.Line(ctx, "svc_1")
				if !got.ExpiresAt.Equal(later) || got.MaxConnections != 4 || got.Enabled {
					t.Fatalf("after edits %+v", got)
				}
				if _, err := x.Playlist(ctx, got); !errors.Is(err, panel.ErrDisabled) {
					t.Fatalf("playlist of a disabled line: %v", err)
				}
				if err := x.SetEnabled(ctx, "svc_1", true); err != nil {
					t.Fatal(err)
				}
				if pl, err := x.Playlist(ctx, got); err != nil || !strings.HasPrefix(string(pl), "#EXTM3U") {
					t.Fatalf("playlist: %v %q", err, pl)
				}
				if err := x.Delete(ctx, "svc_1"); err != nil || len(f.lines) != 0 {
					t.Fatalf("delete: %v, %d lines", err, len(f.lines))
				}
				if _, err := x.Line(ctx, "svc_1"); !errors.Is(err, panel.ErrNotFound) {
					t.Fatalf("deleted line: %v", err)
				}
				if _, err := x.Line(ctx, "svc_unknown"); !errors.Is(err, panel.ErrNotFound) {
					t.Fatalf("unknown ref: %v", err)
				}
			})
		}
	})
}

// TestXtreamMAG: a MAG device is created with its MAC and moved to another one, on both panels;
// a ref the panel does not know is an error, not a silent success.
func TestXtreamMAG(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		for _, flavor := range []string{panel.FlavorXUI, panel.FlavorXtream} {
			t.Run(flavor, func(t *testing.T) {
				f := newFakePanel(t)
				x, _ := newXtream(t, b, f, flavor)
				got, err := x.CreateMAG(t.Context(), panel.Line{Ref: "svc_m", Username: "mag1", Password: "p", MaxConnections: 1, MAC: "00:1A:79:12:34:56"})
				if err != nil || got.MAC != "00:1A:79:12:34:56" {
					t.Fatalf("create mag: %+v %v", got, err)
				}
				if err := x.SetMAC(t.Context(), "svc_m", "00:1A:79:AB:CD:EF"); err != nil {
					t.Fatalf("set mac: %v", err)
				}
				id := ""
				f.mu.Lock()
				for k, l := range f.lines {
					if l["username"] == "mag1" {
						id = k
					}
				}
				f.mu.Unlock()
				if mac := f.line(id)["mac"]; mac != "00:1A:79:AB:CD:EF" {
					t.Errorf("panel holds MAC %q after SetMAC", mac)
				}
				if err := x.SetMAC(t.Context(), "svc_unknown", "00:1A:79:AB:CD:EF"); err == nil {
					t.Error("SetMAC of an unknown ref succeeded")
				}
			})
		}
	})
}

func TestXtreamPanelDownIsRetryable(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFakePanel(t)
		x, _ := newXtream(t, b, f, panel.FlavorXUI)
		f.setDown(true)
		in := panel.Line{Ref: "svc_1", Username: "sc1", Password: "p", MaxConnections: 1}
		if _, err := x.CreateLine(t.Context(), in); !errors.Is(err, panel.ErrUnavailable) {
			t.Fatalf("panel down: %v, want ErrUnavailable", err)
		}
		f.setDown(false)
		if _, err := x.CreateLine(t.Context(), in); err != nil {
			t.Fatal(err)
		}
		f.srv.Close() // gone entirely: a transport error, without the api_key in it
		_, err := x.Line(t.Context(), "svc_1")
		if !errors.Is(err, panel.ErrUnavailable) || strings.Contains(err.Error(), xuiKey) {
			t.Fatalf("panel gone: %v", err)
		}
	})
}

func TestNewXtreamRefusesIncompleteConfig(t *testing.T) {
	cases := []panel.XtreamConfig{
		{Flavor: "other", URL: "http://p"},
		{Flavor: panel.FlavorXUI, URL: ""},
		{Flavor: panel.FlavorXUI, URL: "http://p/ACCESS"},
	}
	for _, c := range cases {
		if _, err := panel.NewXtream(c, nil); err == nil {
			t.Errorf("NewXtream(%+v) accepted", c)
		}
	}
}

// A paid order whose panel is down stays queued: the provisioning job fails, is retried, and
// completes once the panel is back — the order is never lost.
func TestXtreamProvisioningRetriesUntilPanelIsBack(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFakePanel(t)
		x, st := newXtream(t, b, f, panel.FlavorXtream)
		ctx := t.Context()
		log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelError}))
		cat := catalog.Demo()
		catFn := func() *catalog.Catalog { return cat }
		az, _ := authz.NewAuthorizer()
		key, _ := authz.NewKey()
		signer, _ := authz.NewSigner(key)
		id, err := account.New(st, signer, nil).Identify(ctx, "trial@example.com", "")
		if err != nil {
			t.Fatal(err)
		}
		orders := order.New(st, catFn, []order.Gateway{payment.Sandbox{}}, az, order.Config{}, log, nil)
		trial := cat.Plans()[0] // the free trial: paid at once, provisioning queued
		o, err := orders.Create(ctx, id.Claims, order.Request{Quote: pricing.Request{PID: trial.PID}, Gateway: "sandbox", IP: "203.0.113.9"})
		if err != nil || o.Status != order.StatusPaid {
			t.Fatalf("trial order: %v %s", err, o.Status)
		}
		prov := provision.New(st, x, catFn, "sc", nil, log, nil)
		w := job.NewWorker(st, map[string]job.Handler{order.JobProvision: prov.Handle},
			job.Options{Logger: log, MinBackoff: time.Nanosecond, MaxBackoff: time.Nanosecond})

		f.setDown(true)
		if ran, err := w.RunOnce(ctx); !ran || err != nil {
			t.Fatalf("run while down: %v %v", ran, err)
		}
		info, _ := storetest.Inspect(st).JobByKey(ctx, order.JobProvision+":"+o.ID)
		if info.State != store.JobQueued || !strings.Contains(info.LastError, "unavailable") {
			t.Fatalf("job after outage = %s %q, want queued for retry", info.State, info.LastError)
		}
		f.setDown(false)
		if ran, err := w.RunOnce(ctx); !ran || err != nil {
			t.Fatalf("run after outage: %v %v", ran, err)
		}
		got, _ := st.Order(ctx, o.ID)
		svc, _ := st.Service(ctx, got.ServiceIDs[0])
		if got.Status != order.StatusActive || svc.Username == "" || len(f.lines) != 1 {
			t.Fatalf("order %s, service %+v, panel lines %d", got.Status, svc, len(f.lines))
		}
	})
}

// A plan change moves a line's bouquets: XUI.one's edit_line with bouquets_selected[] entries,
// Xtream UI's user edit with user_data[bouquet] as a JSON array; a line the panel lost is
// ErrNotFound.
func TestXtreamSetBouquets(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		for _, flavor := range []string{panel.FlavorXUI, panel.FlavorXtream} {
			t.Run(flavor, func(t *testing.T) {
				f := newFakePanel(t)
				x, st := newXtream(t, b, f, flavor)
				ctx := t.Context()
				if _, err := x.CreateLine(ctx, panel.Line{Ref: "svc_b", Username: "sc87654321", Password: "210987654321", MaxConnections: 1,
					Bouquets: []int{1, 2, 3}, Enabled: true}); err != nil {
					t.Fatal(err)
				}
				if err := x.SetBouquets(ctx, "svc_b", []int{1, 2, 3, 4, 5}); err != nil {
					t.Fatal(err)
				}
				id, _ := st.Ref(ctx, "panel:"+flavor, "svc_b")
				want := map[string]string{panel.FlavorXUI: "1,2,3,4,5", panel.FlavorXtream: "[1,2,3,4,5]"}[flavor]
				if got := f.line(id)["bouquets"] + f.line(id)["bouquet"]; got != want {
					t.Fatalf("bouquets on the panel %q, want %q", got, want)
				}
				if err := x.SetBouquets(ctx, "svc_unknown", []int{1}); !errors.Is(err, panel.ErrNotFound) {
					t.Fatalf("a line never made: %v, want ErrNotFound", err)
				}
			})
		}
	})
}

// Listing the panel's lines: XUI.one's get_lines gives every line, ours named by the service in
// their notes, a hand-made one by its username only; Xtream UI documents no listing
// (ErrCannotList), which the reconciliation skips.
func TestXtreamLines(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		for _, flavor := range []string{panel.FlavorXUI, panel.FlavorXtream} {
			t.Run(flavor, func(t *testing.T) {
				f := newFakePanel(t)
				x, _ := newXtream(t, b, f, flavor)
				ctx := t.Context()
				if _, err := x.CreateLine(ctx, panel.Line{Ref: "svc_l", Username: "sc11112222", Password: "333344445555", MaxConnections: 2,
					ExpiresAt: time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC), Enabled: true}); err != nil {
					t.Fatal(err)
				}
				f.mu.Lock()
				f.create(map[string]string{"username": "by-hand", "password": "x", "max_connections": "1", "notes": "a friend"})
				f.mu.Unlock()
				lines, err := x.Lines(ctx)
				if flavor == panel.FlavorXtream {
					if !errors.Is(err, panel.ErrCannotList) {
						t.Fatalf("Xtream UI listing: %v, want ErrCannotList", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				byUser := map[string]panel.Line{}
				for _, l := range lines {
					byUser[l.Username] = l
				}
				ours, hand := byUser["sc11112222"], byUser["by-hand"]
				if len(lines) != 2 || ours.Ref != "svc_l" || ours.MaxConnections != 2 || !ours.ExpiresAt.Equal(time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)) ||
					hand.Ref != "" || hand.Username != "by-hand" {
					t.Fatalf("lines = %+v, want ours named svc_l and the hand-made one by username", lines)
				}
			})
		}
	})
}
