package geo_test

import (
	"bytes"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/maxmind/mmdbwriter"
	"github.com/maxmind/mmdbwriter/mmdbtype"
)

// country is a record shaped like ip-location-db's.
func country(code string) mmdbtype.Map {
	return mmdbtype.Map{"country_code": mmdbtype.String(code)}
}

// fixture is the test database: public hits, oddly shaped records, and
// special-purpose ranges filled with "ZZ" so that answering Unknown for them
// proves the database was never asked.
var fixture = []struct {
	cidr string
	rec  mmdbtype.Map
}{
	{"81.2.69.0/24", country("GB")},
	{"8.8.8.0/24", country("US")},
	{"2.16.0.0/13", country("fr")},
	{"2a00:1450::/32", country("IE")},
	{"2c0f:fb50::/32", country("KE")},
	{"5.5.0.0/16", mmdbtype.Map{"country_code": mmdbtype.Uint32(42)}},
	{"6.6.0.0/16", country("ABC")},
	{"6.7.0.0/16", country("1A")},
	{"7.7.0.0/16", mmdbtype.Map{"asn": mmdbtype.Uint32(64500)}},
	{"10.0.0.0/8", country("ZZ")},
	{"127.0.0.0/8", country("ZZ")},
	{"100.64.0.0/10", country("ZZ")},
	{"169.254.0.0/16", country("ZZ")},
	{"192.0.2.0/24", country("ZZ")},
	{"224.0.0.0/4", country("ZZ")},
	{"240.0.0.0/4", country("ZZ")},
	{"fc00::/7", country("ZZ")},
	{"fe80::/10", country("ZZ")},
	{"2001:db8::/32", country("ZZ")},
}

// writeDB builds the fixture database in a temporary directory.
func writeDB(t *testing.T) string {
	t.Helper()
	w, err := mmdbwriter.New(mmdbwriter.Options{
		DatabaseType:            "streamcart-test-country",
		RecordSize:              24,
		IncludeReservedNetworks: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fixture {
		_, n, err := net.ParseCIDR(f.cidr)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Insert(n, f.rec); err != nil {
			t.Fatalf("insert %s: %v", f.cidr, err)
		}
	}
	path := filepath.Join(t.TempDir(), "country.mmdb")
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// captureLog sends the default slog logger to a buffer for the test.
// Tests using it must not run in parallel.
func captureLog(t *testing.T) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	return &buf
}
