package app_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/httpapi"
)

// capped are the operations whose 429 rate_limited counts open streams, not requests per
// address: TestOrderEventsCaps holds them to it.
var capped = map[string]bool{"GET /checkout/api/orders/{orderId}/events": true}

// TestOpenAPIDocumentsRateLimits: an operation documents 429 rate_limited exactly when the
// server limits it. Every limit is one request an hour and each operation is called twice: the
// second call is refused only where the document says so (operations sharing a limit are all
// limited, so their order does not matter).
func TestOpenAPIDocumentsRateLimits(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		one := httpapi.Limit{Requests: 1, Window: time.Hour}
		s := newShop(t, func(c *app.Config) {
			c.RateLimits = httpapi.RateLimits{Sessions: one, Promotions: one, Quotes: one, Clicks: one, Orders: one}
		})
		var doc struct {
			Paths map[string]map[string]struct {
				Responses map[string]struct {
					Description string `json:"description"`
				} `json:"responses"`
			} `json:"paths"`
		}
		if err := json.Unmarshal(httpapi.OpenAPI, &doc); err != nil {
			t.Fatal(err)
		}
		param := regexp.MustCompile(`\{[^}]+\}`)
		for _, p := range slices.Sorted(maps.Keys(doc.Paths)) {
			for m, op := range doc.Paths[p] {
				documented := strings.Contains(op.Responses["429"].Description, "rate_limited:")
				if capped[strings.ToUpper(m)+" "+p] {
					continue
				}
				path := param.ReplaceAllString(p, "x")
				body := ""
				if m != "get" && m != "delete" {
					body = `{"email":"limits@example.com"}` // an email-only session where it is one
				}
				s.raw(strings.ToUpper(m), path, "", strings.NewReader(body))
				status, _, b := s.raw(strings.ToUpper(m), path, "", strings.NewReader(body))
				limited := status == http.StatusTooManyRequests && decodeError(t, b).Name == "rate_limited"
				if limited != documented {
					t.Errorf("%s %s: limited %v, documented %v", strings.ToUpper(m), p, limited, documented)
				}
			}
		}
	})
}
