package app_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	gencatalog "github.com/streamcart/streamcart/gen/admin_catalog"
	genpromos "github.com/streamcart/streamcart/gen/admin_promotions"
)

// monthlyEUR is the storefront's monthly EUR price of pid in minor units, read from GET
// /checkout/api/products.
func monthlyEUR(t *testing.T, c *console, pid int) int64 {
	t.Helper()
	status, _, body := c.raw(http.MethodGet, "/checkout/api/products?currency=EUR", "", nil)
	if status != http.StatusOK {
		t.Fatalf("GET /products: %d %s", status, body)
	}
	var res struct {
		Products []struct {
			Pid     int `json:"pid"`
			Pricing map[string]struct {
				Amount int64 `json:"amount"`
			} `json:"pricing"`
		} `json:"products"`
	}
	if err := json.Unmarshal(body, &res); err != nil {
		t.Fatalf("products: %v %s", err, body)
	}
	for _, p := range res.Products {
		if m, ok := p.Pricing["monthly"]; ok && p.Pid == pid {
			return m.Amount
		}
	}
	t.Fatalf("no monthly price of pid %d in %s", pid, body)
	return 0
}

func formPlan(f *gencatalog.AdminCatalogForm, pid int) *gencatalog.AdminCatalogFormPlan {
	for _, p := range f.Plans {
		if p.Pid == pid {
			return p
		}
	}
	return nil
}

// The form's round trip: read the catalog in force, change a price in the form, draft (the YAML
// keeps its comments and the fields the form does not know), check, publish against the version
// in force, see the storefront change, roll back.
func TestAdminCatalogFormPublishRollback(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		cl := c.clientsOf()
		ctx := t.Context()
		s := c.roles()
		o, viewer := s["owner"], s["viewer"]

		cur, err := cl.catalog.Get(ctx, &gencatalog.GetPayload{Session: &viewer.cookie})
		if err != nil || cur.Published || cur.Version.Version != 0 || cur.Form == nil {
			t.Fatalf("GET /admin/catalog before any publish: %+v %v", cur, err)
		}
		std := formPlan(cur.Form, 2)
		if std == nil || std.Name != "Standard" || std.Prices["monthly"]["EUR"] != "12.99" || !std.Extras || !std.Proxy {
			t.Fatalf("Standard in the form: %+v", std)
		}
		var summer *gencatalog.AdminCatalogFormPromotion
		for _, p := range cur.Form.Promotions {
			if p.Code == "SUMMER2020" {
				summer = p
			}
		}
		if summer == nil || summer.Status == nil || *summer.Status != "expired" || strings.Join(summer.Products, ",") != "Standard,Premium" {
			t.Fatalf("SUMMER2020 in the form: %+v", summer)
		}
		promos, err := cl.promos.List(ctx, &genpromos.ListPayload{Session: &viewer.cookie})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range promos.Promotions {
			if p.Code == "SUMMER2020" && (p.Status != "expired" || strings.Join(p.Products, ",") != "Standard,Premium") {
				t.Fatalf("GET /admin/promotions SUMMER2020: %+v", p)
			}
			if p.Code == "WELCOME10" && p.Status != "active" {
				t.Fatalf("GET /admin/promotions WELCOME10: %+v", p)
			}
		}
		before := monthlyEUR(t, c, 2)

		// A viewer reads but does not draft or publish.
		_, err = cl.catalog.Draft(ctx, &gencatalog.DraftPayload{Session: &viewer.cookie, CsrfToken: &viewer.csrf, Form: cur.Form})
		wantErr(t, err, "forbidden", "")

		std.Prices["monthly"]["EUR"] = "11.49"
		d, err := cl.catalog.Draft(ctx, &gencatalog.DraftPayload{Session: &o.cookie, CsrfToken: &o.csrf, Form: cur.Form})
		if err != nil {
			t.Fatalf("POST /admin/catalog/draft: %v", err)
		}
		if d.Source != strings.Replace(cur.Source, `monthly:      {EUR: "12.99"`, `monthly:      {EUR: "11.49"`, 1) || !strings.Contains(d.Source, "# Expired on purpose: tests rely on it.") ||
			!strings.Contains(d.Source, "i18n:") || !strings.Contains(d.Diff, `+      monthly:      {EUR: "11.49", GBP: "10.99"}`) ||
			!strings.Contains(d.Diff, `-      monthly:      {EUR: "12.99", GBP: "10.99"}`) || d.Base != cur.Version.Sha256 {
			t.Fatalf("draft:\n%s\ndiff:\n%s", d.Source, d.Diff)
		}
		// A form naming a plan the file lacks: 400, nothing changed.
		bogus := *cur.Form
		bogus.Plans = []*gencatalog.AdminCatalogFormPlan{{Pid: 99, Group: "plan", Name: "x", Prices: map[string]map[string]string{}}}
		_, err = cl.catalog.Draft(ctx, &gencatalog.DraftPayload{Session: &o.cookie, CsrfToken: &o.csrf, Form: &bogus})
		wantErr(t, err, "bad_request", "")

		if r, err := cl.catalog.Check(ctx, &gencatalog.CheckPayload{Session: &viewer.cookie, CsrfToken: &viewer.csrf, Source: d.Source}); err != nil || !r.OK {
			t.Fatalf("check of the draft: %+v %v", r, err)
		}

		// 40 publishes of the same draft at once: one version, the others 409 conflict.
		var wg sync.WaitGroup
		var mu sync.Mutex
		made, stale := 0, 0
		for range 40 {
			wg.Go(func() {
				_, err := cl.catalog.Put(ctx, &gencatalog.PutPayload{Session: &o.cookie, CsrfToken: &o.csrf, Source: d.Source, Comment: ptr("Standard cheaper"), Base: &d.Base})
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					made++
				case isConflict(err):
					stale++
				default:
					t.Errorf("publish: %v", err)
				}
			})
		}
		wg.Wait()
		if made != 1 || stale != 39 {
			t.Fatalf("40 publishes: %d made, %d stale", made, stale)
		}
		vs, err := cl.catalog.Versions(ctx, &gencatalog.VersionsPayload{Session: &viewer.cookie})
		// The catalog in force before (the demo) is kept as version 1, the draft is version 2.
		if err != nil || len(vs.Versions) != 2 || vs.Versions[0].Comment != "Standard cheaper" || vs.Versions[1].Sha256 != cur.Version.Sha256 {
			t.Fatalf("versions after the publish: %+v %v", vs, err)
		}
		if got := monthlyEUR(t, c, 2); got != 1149 || before != 1299 {
			t.Fatalf("storefront monthly EUR: before %d, after %d", before, got)
		}
		now, err := cl.catalog.Get(ctx, &gencatalog.GetPayload{Session: &viewer.cookie})
		if err != nil || !now.Published || now.Version.Version != 2 || now.Version.CreatedAt == "" || now.Version.Operator != "owner@example.com" {
			t.Fatalf("GET /admin/catalog after the publish: %+v %v", now.Version, err)
		}

		// Roll back: version 1's source published against the version in force.
		old, err := cl.catalog.Version(ctx, &gencatalog.VersionPayload{Session: &viewer.cookie, Version: 1})
		if err != nil {
			t.Fatal(err)
		}
		back, err := cl.catalog.Put(ctx, &gencatalog.PutPayload{Session: &o.cookie, CsrfToken: &o.csrf, Source: old.Source, Comment: ptr("rollback to version 1"), Base: &now.Version.Sha256})
		if err != nil || back.Version.Version != 3 {
			t.Fatalf("rollback: %+v %v", back, err)
		}
		if got := monthlyEUR(t, c, 2); got != 1299 {
			t.Fatalf("after the rollback: %d", got)
		}
		// A draft made from version 2, no longer in force: 409, nothing changed.
		_, err = cl.catalog.Put(ctx, &gencatalog.PutPayload{Session: &o.cookie, CsrfToken: &o.csrf, Source: d.Source, Base: &now.Version.Sha256})
		if !isConflict(err) {
			t.Fatalf("stale publish: %v", err)
		}
		if got := monthlyEUR(t, c, 2); got != 1299 {
			t.Fatalf("a stale publish changed the price: %d", got)
		}
	})
}

func isConflict(err error) bool {
	var se interface{ GoaErrorName() string }
	return errors.As(err, &se) && se.GoaErrorName() == "conflict"
}

// POST /admin/catalog/check: 200 {ok:true}, or 400 invalid_catalog with the first problem's line
// and field; the CSRF header; a client's token; nothing stored either way.
func TestAdminCatalogCheck(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		s := c.roles()
		v := s["viewer"]
		cur, err := c.clientsOf().catalog.Get(t.Context(), &gencatalog.GetPayload{Session: &v.cookie})
		if err != nil {
			t.Fatal(err)
		}
		post := func(source string, csrf string) (int, map[string]any) {
			body, _ := json.Marshal(map[string]string{"source": source})
			h := http.Header{"Cookie": {"streamcart_admin=" + v.cookie}}
			if csrf != "" {
				h.Set("X-CSRF-Token", csrf)
			}
			status, _, b := c.rawWith(http.MethodPost, "/checkout/api/admin/catalog/check", "", strings.NewReader(string(body)), h)
			var out map[string]any
			_ = json.Unmarshal(b, &out)
			return status, out
		}
		if status, out := post(cur.Source, v.csrf); status != http.StatusOK || out["ok"] != true {
			t.Fatalf("good source: %d %v", status, out)
		}
		bad := strings.Replace(cur.Source, `monthly:      {EUR: "12.99"`, `monthly:      {EUR: "twelve"`, 1)
		status, out := post(bad, v.csrf)
		wantLine := float64(strings.Count(bad[:strings.Index(bad, "twelve")], "\n") + 1)
		if status != http.StatusBadRequest || out["name"] != "invalid_catalog" || out["field"] != "products[1].cycles.monthly.EUR" || out["line"] != wantLine {
			t.Fatalf("bad source: %d %v (want line %v)", status, out, wantLine)
		}
		// Line breaks and tabs are the file's text; another control character, or a body over
		// 64 KB, is refused before anything is checked.
		if status, out := post(cur.Source+"# a comment\twith a tab\r\n", v.csrf); status != http.StatusOK {
			t.Fatalf("a source with tabs and CRLF: %d %v", status, out)
		}
		if status, out := post(cur.Source+"\x01", v.csrf); status != http.StatusBadRequest || out["name"] != "bad_request" {
			t.Fatalf("a control character: %d %v", status, out)
		}
		if status, _ := post(strings.Repeat("#", 70<<10), v.csrf); status != http.StatusRequestEntityTooLarge {
			t.Fatalf("a 70 KB source: %d", status)
		}
		if status, out := post(cur.Source, ""); status != http.StatusForbidden || out["name"] != "invalid_csrf_token" {
			t.Fatalf("no CSRF: %d %v", status, out)
		}
		if status, out := post(cur.Source, "wrong"); status != http.StatusForbidden || out["name"] != "invalid_csrf_token" {
			t.Fatalf("wrong CSRF: %d %v", status, out)
		}
		if status, _, _ := c.raw(http.MethodPost, "/checkout/api/admin/catalog/check", c.identify("buyer@example.com", "").Token,
			strings.NewReader(`{"source":"x"}`)); status != http.StatusUnauthorized {
			t.Fatalf("a client's token: %d", status)
		}
		vs, err := c.clientsOf().catalog.Versions(t.Context(), &gencatalog.VersionsPayload{Session: &v.cookie})
		if err != nil || len(vs.Versions) != 0 {
			t.Fatalf("a check stored a version: %+v %v", vs, err)
		}
		// The draft and the publish need the CSRF header too.
		for _, path := range []string{"/checkout/api/admin/catalog/draft", "/checkout/api/admin/catalog"} {
			o := s["owner"]
			method := http.MethodPost
			if !strings.HasSuffix(path, "draft") {
				method = http.MethodPut
			}
			status, _, b := c.rawWith(method, path, "", strings.NewReader(`{"source":"defaultCurrency: EUR\n"}`), http.Header{"Cookie": {"streamcart_admin=" + o.cookie}})
			if status != http.StatusForbidden || !strings.Contains(string(b), "invalid_csrf_token") {
				t.Fatalf("%s %s without CSRF: %d %s", method, path, status, b)
			}
		}
	})
}
