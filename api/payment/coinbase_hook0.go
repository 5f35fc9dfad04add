package payment

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Hook0Tolerance is how old a signed Coinbase Business webhook may be (the provider's own
// verification example refuses anything older than five minutes); Hook0Skew is how far ahead of
// our clock its timestamp may be before it is refused as forged or replayed from the future.
const (
	Hook0Tolerance = 5 * time.Minute
	Hook0Skew      = 5 * time.Second
)

// verifyHook0 checks an X-Hook0-Signature header, "t=<unix seconds>,h=<header names separated by
// spaces>,v1=<hex>", where v1 is HMAC-SHA256 with the subscription's secret over
// "{t}.{h}.{those headers' values joined by '.'}.{raw body}". The comparison is constant-time;
// a timestamp older than Hook0Tolerance or ahead by more than Hook0Skew is refused.
func verifyHook0(h http.Header, body []byte, secret string, now time.Time) error {
	sig := h.Get("X-Hook0-Signature")
	if sig == "" {
		return fmt.Errorf("%w: missing X-Hook0-Signature", ErrBadSignature)
	}
	parts := map[string]string{}
	for _, p := range strings.Split(sig, ",") {
		if k, v, ok := strings.Cut(p, "="); ok {
			parts[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	ts, names, v1 := parts["t"], parts["h"], parts["v1"]
	got, err := hex.DecodeString(v1)
	if ts == "" || v1 == "" || err != nil || len(got) != sha256.Size {
		return fmt.Errorf("%w: malformed X-Hook0-Signature", ErrBadSignature)
	}
	if _, ok := parts["h"]; !ok {
		return fmt.Errorf("%w: X-Hook0-Signature names no headers (h)", ErrBadSignature)
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: malformed timestamp", ErrBadSignature)
	}
	var values []string
	for _, n := range strings.Fields(names) {
		values = append(values, h.Get(n))
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "." + names + "." + strings.Join(values, ".") + "."))
	mac.Write(body)
	if !hmac.Equal(got, mac.Sum(nil)) {
		return fmt.Errorf("%w: signature mismatch", ErrBadSignature)
	}
	// After the MAC: only a genuine timestamp is worth judging.
	at := time.Unix(sec, 0)
	if now.Sub(at) > Hook0Tolerance {
		return fmt.Errorf("%w: signed %s ago, more than %s", ErrBadSignature, now.Sub(at).Round(time.Second), Hook0Tolerance)
	}
	if at.Sub(now) > Hook0Skew {
		return fmt.Errorf("%w: signed %s in the future", ErrBadSignature, at.Sub(now).Round(time.Second))
	}
	return nil
}
