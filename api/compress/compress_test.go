package compress_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/streamcart/streamcart/api/compress"
)

func TestAccepts(t *testing.T) {
	tests := []struct {
		header, coding string
		want           bool
	}{
		{"", "gzip", false},
		{"gzip", "gzip", true},
		{"GZIP", "gzip", true},
		{"gzip, deflate, br", "gzip", true},
		{"gzip, deflate, br", "br", true},
		{"deflate", "gzip", false},
		{"br;q=1.0, gzip;q=0.8", "gzip", true},
		{"gzip;q=0, br", "gzip", false},
		{"gzip; q=0", "gzip", false},
		{"gzip;q=0.0", "gzip", false},
		{"gzip;q=0.001", "gzip", true},
		{"gzip;q=nope", "gzip", false},
		{"*", "gzip", true},
		{"*;q=0", "gzip", false},
		{"gzip;q=0, *", "gzip", false},    // named beats the wildcard
		{"*;q=0, gzip", "gzip", true},     // wherever it stands
		{"identity, *;q=0.5", "br", true}, // the wildcard covers what is not named
		{"xgzip, gzipx", "gzip", false},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", "/", nil)
		if tt.header != "" {
			r.Header.Set("Accept-Encoding", tt.header)
		}
		if got := compress.Accepts(r, tt.coding); got != tt.want {
			t.Errorf("Accepts(%q, %s) = %v, want %v", tt.header, tt.coding, got, tt.want)
		}
		if tt.coding == "gzip" && compress.AcceptsGzip(r) != tt.want {
			t.Errorf("AcceptsGzip(%q) != Accepts", tt.header)
		}
	}
}

// Both compressors give back the same bytes, the smallest one no larger than the default; the
// pooled writer is reused without carrying one body into the next.
func TestGzip(t *testing.T) {
	for _, body := range [][]byte{[]byte(strings.Repeat(`{"pid":2,"name":"Premium"},`, 200)), []byte("short"), nil} {
		for name, gz := range map[string][]byte{"Gzip": compress.Gzip(body), "Gzip again": compress.Gzip(body), "GzipSmallest": compress.GzipSmallest(body)} {
			zr, err := gzip.NewReader(bytes.NewReader(gz))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(got, body) {
				t.Fatalf("%s of %d bytes decodes to %d bytes, %v", name, len(body), len(got), err)
			}
		}
		if len(compress.GzipSmallest(body)) > len(compress.Gzip(body)) {
			t.Errorf("GzipSmallest is larger than Gzip for %d bytes", len(body))
		}
	}
}

func TestPrefer(t *testing.T) {
	tests := []struct {
		header string
		want   string
	}{
		{"gzip, deflate, br, zstd", "br"}, // Chromium: brotli first on a tie
		{"gzip", "gzip"},
		{"br;q=0.5, gzip", "gzip"},
		{"br;q=0, gzip;q=0", ""},
		{"*", "br"},
		{"*;q=0, gzip", "gzip"},
		{"x-gzip", "gzip"},
		{"identity", ""},
		{"", ""},
		{"br;q=abc, gzip;q=0.1", "gzip"}, // a malformed weight is no acceptance
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", "/", nil)
		if tt.header != "" {
			r.Header.Set("Accept-Encoding", tt.header)
		}
		if got := compress.Prefer(r, "br", "gzip"); got != tt.want {
			t.Errorf("Prefer(%q) = %q, want %q", tt.header, got, tt.want)
		}
	}
}

// The pooled writers of each coding, reused, and BrotliSmallest decode to what was written.
func TestWriters(t *testing.T) {
	readers := map[string]func(io.Reader) (io.Reader, error){
		"gzip": func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
		"br":   func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
	}
	for _, body := range [][]byte{[]byte(strings.Repeat(`{"pid":2,"name":"Premium"},`, 200)), []byte("short"), nil} {
		for coding, reader := range readers {
			for range 2 {
				var buf bytes.Buffer
				w := compress.NewWriter(coding, &buf)
				w.Write(body)
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				r, err := reader(&buf)
				if err != nil {
					t.Fatal(err)
				}
				if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, body) {
					t.Fatalf("%s of %d bytes decodes to %d bytes, %v", coding, len(body), len(got), err)
				}
			}
		}
		if got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(compress.BrotliSmallest(body)))); err != nil || !bytes.Equal(got, body) {
			t.Fatalf("BrotliSmallest of %d bytes decodes to %d bytes, %v", len(body), len(got), err)
		}
	}
}
