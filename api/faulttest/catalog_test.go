package faulttest_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
)

// dearerCatalog writes the demo catalog with the Standard plan at 14.49 EUR a month (instead of
// 12.99) and returns its path.
func dearerCatalog(t *testing.T) string {
	t.Helper()
	demo := string(catalog.DemoYAML())
	const old = `monthly:      {EUR: "12.99", GBP: "10.99"}`
	if strings.Count(demo, old) != 1 {
		t.Fatalf("the demo catalog no longer prices Standard as %s", old)
	}
	path := filepath.Join(t.TempDir(), "catalog.yaml")
	if err := os.WriteFile(path, []byte(strings.Replace(demo, old, `monthly:      {EUR: "14.49", GBP: "10.99"}`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := catalog.WriteDemoLegal(filepath.Dir(path)); err != nil {
		t.Fatal(err)
	}
	return path
}

// standardMonthlyEUR reads the Standard plan's monthly price (minor units) from h.
func standardMonthlyEUR(t *testing.T, get func(path string) (*http.Response, error)) int64 {
	t.Helper()
	resp, err := get("/checkout/api/products/2?currency=EUR")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var p struct {
		Pricing map[string]struct{ Amount int64 }
	}
	if err := json.NewDecoder(resp.Body).Decode(&p); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET product 2: %d %v", resp.StatusCode, err)
	}
	return p.Pricing["monthly"].Amount
}

// TestCatalogImportReachesTheOtherInstance opens two shops on one database. A catalog imported
// through one is not seen by the other until its next check (RefreshCatalog, which a running
// shop calls every app.DefaultCatalogPoll), and is then served by its read path, whose cached
// product lists are keyed by the catalog.
func TestCatalogImportReachesTheOtherInstance(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	open := func() *app.App {
		a, err := app.Open(t.Context(), app.Config{DB: c.url, SecretKey: c.secret, JobLease: time.Minute, JobPoll: time.Hour,
			ShutdownTimeout: time.Second}, slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn})))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		return a
	}
	one, two := open(), open()
	get := func(a *app.App) func(string) (*http.Response, error) {
		return func(path string) (*http.Response, error) {
			rec := httptest.NewRecorder()
			a.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
			return rec.Result(), nil
		}
	}
	if p := standardMonthlyEUR(t, get(two)); p != 1299 {
		t.Fatalf("before the import: %d, want 1299", p)
	}
	if _, err := app.ImportCatalog(t.Context(), one.Store(), dearerCatalog(t)); err != nil {
		t.Fatal(err)
	}
	if p := standardMonthlyEUR(t, get(two)); p != 1299 {
		t.Fatalf("before the other shop's check: %d, want the previous 1299", p)
	}
	for _, a := range []*app.App{one, two} {
		changed, err := a.RefreshCatalog(t.Context())
		if err != nil || !changed {
			t.Fatalf("RefreshCatalog after the import = %v, %v; want a change", changed, err)
		}
		if p := standardMonthlyEUR(t, get(a)); p != 1449 {
			t.Fatalf("after the check: %d, want 1449", p)
		}
		if changed, err := a.RefreshCatalog(t.Context()); err != nil || changed {
			t.Fatalf("second RefreshCatalog = %v, %v; want no change", changed, err)
		}
	}
}

// TestRunningReplicasPickUpACatalogImport runs `streamcart catalog import` against the database
// of two running replicas: both serve the new price on their own (their periodic check), and
// price new orders with it.
func TestRunningReplicasPickUpACatalogImport(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	reps := []*replica{c.replica("a"), c.replica("b")}
	for _, r := range reps {
		if p := standardMonthlyEUR(t, getter(r.base)); p != 1299 {
			t.Fatalf("replica %s before the import: %d, want 1299", r.name, p)
		}
	}
	cmd := exec.Command(binary, "catalog", "import", dearerCatalog(t))
	cmd.Env = append(os.Environ(), "STREAMCART_DB="+c.url)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("catalog import: %v\n%s", err, out)
	}
	bs := buyers(t, reps[0].base, 1)
	for i, r := range reps {
		eventually(t, "replica "+r.name+" to serve the imported price", func() bool {
			return standardMonthlyEUR(t, getter(r.base)) == 1449
		})
		var o struct {
			Total struct{ Amount int64 }
		}
		h := jsonHeader()
		h.Set("Idempotency-Key", "after-import-"+r.name)
		code, err := bs[0].do(t.Context(), http.MethodPost, r.base+"/checkout/api/orders", h, bytes.NewReader([]byte(standardMonthly)), &o)
		if err != nil || code != http.StatusCreated || o.Total.Amount != 1449 {
			t.Fatalf("order %d on replica %s after the import: %d %v total %d, want 201 and 1449", i, r.name, code, err, o.Total.Amount)
		}
	}
}

func getter(base string) func(string) (*http.Response, error) {
	return func(path string) (*http.Response, error) { return http.Get(base + path) }
}
