package app_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
	genresellers "github.com/streamcart/streamcart/gen/resellers"
	gensession "github.com/streamcart/streamcart/gen/session"
	genupsell "github.com/streamcart/streamcart/gen/upsell"
)

// TestStorefrontReturnURLs: a storefront's sites are valid return URLs for every flow that sends
// the buyer back (sign-in links, upsell and reseller orders) — with its key only.
func TestStorefrontReturnURLs(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "catalog.yaml")
		partner := "  - {key: pk_test_partner, name: Partner, allowedOrigins: [\"https://partner.test\"]}\n"
		if err := os.WriteFile(file, append(catalog.DemoYAML(), partner...), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := catalog.WriteDemoLegal(filepath.Dir(file)); err != nil {
			t.Fatal(err)
		}
		s := newShop(t, func(c *app.Config) { c.CatalogFile = file })
		keyed := *s
		keyed.clients(storeDoer{next: s.http, key: "pk_test_partner", origin: "https://partner.test"})

		buyer := s.identify("partner-return@example.com", "")
		_, svcID := s.activeService(buyer.Token, standard())
		owner := s.proven("partner-return@example.com")
		back := "https://partner.test/account?tab=tv"

		tests := []struct {
			name string
			call func(sh *shop) error
		}{
			{"sign-in link", func(sh *shop) error {
				return sh.session.RequestLink(t.Context(), &gensession.RequestLinkPayload{Email: "partner-return@example.com", ReturnURL: ptr(back)})
			}},
			{"upsell order", func(sh *shop) error {
				_, err := sh.after.upsell.Order(t.Context(), &genupsell.OrderPayload{Token: ptr(owner.Token), ServiceID: svcID, ExtraQuantity: 1, ReturnURL: ptr(back)})
				return err
			}},
			{"reseller order", func(sh *shop) error {
				_, err := sh.after.resellers.Order(t.Context(), &genresellers.OrderPayload{Token: ptr(owner.Token), Pid: 10,
					Password: "reseller-pw", ConfirmPassword: "reseller-pw", ReturnURL: ptr(back)})
				return err
			}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				wantErr(t, tt.call(s), "bad_request", "")
				if err := tt.call(&keyed); err != nil {
					t.Fatalf("with the partner's key: %v", err)
				}
				if tt.name != "sign-in link" {
					return
				}
				if _, link := s.lastLink("partner-return@example.com"); !strings.HasPrefix(link, "https://partner.test/account?") || !strings.Contains(link, "tab=tv") {
					t.Errorf("sign-in link %q does not open the partner's page", link)
				}
			})
		}
	})
}
