// Package geo finds the country of an IP address in an offline MMDB country
// database, so no third party learns who visits the shop.
package geo

import (
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"sync"

	"github.com/oschwald/maxminddb-golang/v2"
)

// Fallback countries of the storefront spec (§9).
const (
	// Unknown is answered when no country is known for the address.
	Unknown = "MA"
	// Failed is answered when the lookup itself went wrong.
	Failed = "XX"
)

// Attribution is the notice the data's licence requires wherever the
// database ships (docs, about pages).
const Attribution = "IP address to country data: geo-whois-asn-country from ip-location-db " +
	"(https://github.com/sapics/ip-location-db), built from RIR WHOIS and ASN data " +
	"by the Number Resource Organization (https://www.nro.net/), licensed under " +
	"CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)."

// ErrClosed is the lookup error after Close.
var ErrClosed = errors.New("geo: database closed")

// errBadRecord marks a record whose country_code is not two letters.
var errBadRecord = errors.New("geo: malformed country_code")

// Lookup answers country queries from one opened database. It is safe for
// concurrent use.
type Lookup struct {
	// mu keeps Close from unmapping the file under a running lookup.
	mu sync.RWMutex
	db *maxminddb.Reader
}

// record is the ip-location-db country record: {"country_code":"XX"}.
type record struct {
	CountryCode string `maxminddb:"country_code"`
}

// Open memory-maps the MMDB file at path (or reads it once where mapping is
// unsupported). The file must not be rewritten in place while open.
func Open(path string) (*Lookup, error) {
	db, err := maxminddb.Open(path)
	if err != nil {
		return nil, fmt.Errorf("geo: open %s: %w", path, err)
	}
	return &Lookup{db: db}, nil
}

// Close releases the database. Lookups afterwards answer Failed.
func (l *Lookup) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.db == nil {
		return nil
	}
	err := l.db.Close()
	l.db = nil
	if err != nil {
		return fmt.Errorf("geo: close: %w", err)
	}
	return nil
}

// Country returns the ISO 3166-1 alpha-2 code of ip. Addresses that cannot
// be located (Skipped) and addresses missing from the database give Unknown;
// a nil or closed Lookup, or a lookup error, gives Failed and is logged.
func (l *Lookup) Country(ip netip.Addr) string {
	ip = ip.Unmap().WithZone("")
	if Skipped(ip) {
		return Unknown
	}
	code, err := l.lookup(ip)
	if err != nil {
		slog.Warn("Country lookup failed", "ip", ip.String(), "err", err)
		return Failed
	}
	if code == "" {
		return Unknown
	}
	return code
}

// Locate is the country of ip as evidence of where a buyer is: its ISO 3166-1 alpha-2 code, or
// "" when it is not known (an address that cannot be located, one missing from the database, a
// failed lookup, a nil Lookup). Unlike Country it never answers the storefront's fallbacks (MA,
// XX), which would read as real countries.
func (l *Lookup) Locate(ip netip.Addr) string {
	ip = ip.Unmap().WithZone("")
	if l == nil || !ip.IsValid() || Skipped(ip) {
		return ""
	}
	code, err := l.lookup(ip)
	if err != nil {
		slog.Warn("Country lookup failed", "ip", ip.String(), "err", err)
		return ""
	}
	return code
}

func (l *Lookup) lookup(ip netip.Addr) (string, error) {
	if l == nil {
		return "", errors.New("geo: no database")
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.db == nil {
		return "", ErrClosed
	}
	res := l.db.Lookup(ip)
	if err := res.Err(); err != nil {
		return "", fmt.Errorf("geo: lookup: %w", err)
	}
	if !res.Found() {
		return "", nil
	}
	var rec record
	if err := res.Decode(&rec); err != nil {
		return "", fmt.Errorf("geo: decode: %w", err)
	}
	return normalize(rec.CountryCode)
}

// normalize upper-cases a two-letter code; an empty one means "not known".
func normalize(code string) (string, error) {
	if code == "" {
		return "", nil
	}
	if len(code) != 2 {
		return "", fmt.Errorf("%w: %q", errBadRecord, code)
	}
	b := []byte(code)
	for i, c := range b {
		switch {
		case c >= 'A' && c <= 'Z':
		case c >= 'a' && c <= 'z':
			b[i] = c - 'a' + 'A'
		default:
			return "", fmt.Errorf("%w: %q", errBadRecord, code)
		}
	}
	return string(b), nil
}
