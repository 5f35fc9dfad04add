package app_test

import (
	"slices"
	"testing"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/faulttest"
	"github.com/streamcart/streamcart/api/operator"
	genservices "github.com/streamcart/streamcart/gen/admin_services"
)

// A plan change moves the panel line to the new plan's bouquets (and connections), on the
// built-in panel and on an XUI.one panel: Standard (bouquets 1–3) to Premium (1–5), given free by
// the owner, then back down by a next-renewal change — which waits for the renewal, leaving the
// line as it is.
func TestPlanChangeMovesTheBouquets(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		for _, name := range []string{"builtin", "xui"} {
			t.Run(name, func(t *testing.T) {
				var chaos *faulttest.ChaosPanel
				opts := []func(*app.Config){}
				if name == "xui" {
					chaos = faulttest.NewChaosPanel(1, 1000)
					t.Cleanup(chaos.Close)
					opts = append(opts, func(cfg *app.Config) {
						cfg.Panel, cfg.PanelURL, cfg.PanelAPIKey = "xui", chaos.URL(), faulttest.APIKey
					})
				}
				c := newConsole(t, opts...)
				ctx, st := t.Context(), c.app.Store()
				_, svc := c.activeService(c.identify("plan@example.com", "").Token, standard())
				bouquets := func() (b []int, conns int) {
					t.Helper()
					if chaos == nil {
						l, err := st.LineByRef(ctx, svc)
						if err != nil {
							t.Fatal(err)
						}
						return l.Bouquets, l.MaxConnections
					}
					for _, l := range chaos.Lines() {
						if l.Ref() == svc {
							return l.BouquetIDs(), l.MaxConnections
						}
					}
					t.Fatalf("no panel line for %s", svc)
					return nil, 0
				}
				if b, _ := bouquets(); !slices.Equal(b, []int{1, 2, 3}) {
					t.Fatalf("Standard's line plays %v, want [1 2 3]", b)
				}
				owner := c.signIn("owner@example.com", c.enrol("owner@example.com", operator.RoleOwner))
				change := func(p genservices.ChangePayload) {
					t.Helper()
					p.Session, p.CsrfToken, p.ID, p.Reason = ptr(owner.cookie), ptr(owner.csrf), svc, "plan change"
					if _, err := c.clientsOf().services.Change(ctx, &p); err != nil {
						t.Fatalf("change %+v: %v", p, err)
					}
					c.drain()
				}
				change(genservices.ChangePayload{Pid: ptr(3), MaxConnections: ptr(2), Charge: "free"})
				if b, conns := bouquets(); !slices.Equal(b, []int{1, 2, 3, 4, 5}) || conns != 2 {
					t.Fatalf("after the change to Premium the line plays %v on %d connections, want [1 2 3 4 5] on 2", b, conns)
				}
				change(genservices.ChangePayload{Pid: ptr(2), MaxConnections: ptr(1), Charge: "free"})
				if b, conns := bouquets(); !slices.Equal(b, []int{1, 2, 3}) || conns != 1 {
					t.Fatalf("after the change back to Standard the line plays %v on %d connections, want [1 2 3] on 1", b, conns)
				}
			})
		}
	})
}
