package app_test

import (
	"testing"

	"github.com/streamcart/streamcart/api/app"
)

// TestWHMCSClientCountry: the client made in WHMCS carries the country of the buyer's address
// when the country database knows it, and none when it does not; never the storefront's
// fallback (MA for an address missing from the database), which WHMCS would record as Morocco.
func TestWHMCSClientCountry(t *testing.T) {
	mmdb := countryDB(t, map[string]string{"2.16.0.0/13": "DE"})
	forEachBackend(t, func(t *testing.T) {
		for _, tc := range []struct{ ip, want string }{
			{ipDE, "DE"},
			{"1.1.1.1", ""}, // public, not in the database
		} {
			t.Run(tc.ip, func(t *testing.T) {
				s, f := whmcsShop(t, func(c *app.Config) { c.GeoDB, c.TrustedProxies = mmdb, prefixes("127.0.0.0/8") })
				buyer := s.from(tc.ip)
				buyer.buy(buyer.identify("buyer@example.com", "").Token, whmcsBuy())
				st := f.State()
				if len(st.Clients) != 1 || st.Clients[0].Country != tc.want {
					t.Fatalf("WHMCS clients %+v, want one in %q", st.Clients, tc.want)
				}
			})
		}
	})
}
