package app_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/payment"
	gensession "github.com/streamcart/streamcart/gen/session"
)

// forgedDoer sends every request with a forged Host (when host is set) and further headers: what
// an attacker controls on any request.
type forgedDoer struct {
	next   *http.Client
	host   string
	header http.Header
}

func (d forgedDoer) Do(r *http.Request) (*http.Response, error) {
	if d.host != "" {
		r.Host = d.host
	}
	for k, v := range d.header {
		r.Header[k] = v
	}
	return d.next.Do(r)
}

// TestLinksIgnoreTheRequestHost: whatever Host, X-Forwarded-Host or Origin a request carries
// (behind a trusted proxy or not), the sign-in link mailed and the payment page linked are on
// the configured public URL, or without one on the address the shop listens on; an absolute
// return URL on the forged host is refused, and the sandbox's Pay button redirects to the
// order's own return path.
func TestLinksIgnoreTheRequestHost(t *testing.T) {
	forgeries := []struct {
		name   string
		host   string
		header http.Header
	}{
		{name: "Host", host: "evil.example"},
		{name: "X-Forwarded-Host", header: http.Header{"X-Forwarded-Host": {"evil.example"}, "X-Forwarded-Proto": {"https"}}},
		// An Origin naming another site than Host is refused before (403 origin_not_allowed): the
		// forgery that passes is the pair.
		{name: "Origin", host: "evil.example", header: http.Header{"Origin": {"http://evil.example"}}},
		{name: "all at once", host: "evil.example", header: http.Header{"X-Forwarded-Host": {"evil.example"}, "X-Forwarded-Proto": {"https"}, "Origin": {"http://evil.example"}}},
	}
	forEachBackend(t, func(t *testing.T) {
		for _, shopCase := range []struct {
			name       string
			publicURL  string
			trustProxy bool
		}{
			{name: "public URL", publicURL: "https://shop.example/"},
			{name: "public URL behind a trusted proxy", publicURL: "https://shop.example", trustProxy: true},
			{name: "listen address", trustProxy: true},
		} {
			t.Run(shopCase.name, func(t *testing.T) {
				s := newShop(t, func(c *app.Config) {
					c.PublicURL = shopCase.publicURL
					if shopCase.trustProxy {
						c.TrustedProxies = prefixes("127.0.0.0/8")
					}
				})
				base := strings.TrimRight(shopCase.publicURL, "/")
				if base == "" {
					base = s.base
				}
				for i, f := range forgeries {
					t.Run(f.name, func(t *testing.T) {
						email := "victim" + string(rune('a'+i)) + "@example.com"
						buyer := s.identify(email, "")
						evil := *s
						evil.clients(forgedDoer{next: s.http, host: f.host, header: f.header})

						if err := evil.session.RequestLink(t.Context(), &gensession.RequestLinkPayload{Email: email}); err != nil {
							t.Fatalf("POST /session/link: %v", err)
						}
						if _, link := s.lastLink(email); !strings.HasPrefix(link, base+"/checkout/?") {
							t.Fatalf("mailed link %q, want it on %s", link, base)
						}
						err := evil.session.RequestLink(t.Context(), &gensession.RequestLinkPayload{Email: email, ReturnURL: ptr("http://evil.example/checkout/")})
						wantErr(t, err, "bad_request", "")

						p := standard()
						p.ReturnURL = ptr("http://evil.example/thanks")
						p.Token = ptr(buyer.Token)
						_, err = evil.order.Create(t.Context(), &p)
						wantErr(t, err, "bad_request", "")

						o := evil.buy(buyer.Token, standard())
						if want := base + payment.SandboxPath + o.InvoiceID; o.PaymentURL != want {
							t.Fatalf("payment URL = %q, want %q", o.PaymentURL, want)
						}
						resp := evil.sandbox(s.base+payment.SandboxPath+o.InvoiceID, "pay")
						if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/checkout/waiting?order="+o.OrderID {
							t.Fatalf("pay = %d Location %q, want 303 to the order's own path", resp.StatusCode, loc)
						}
						// Every link the buyer is mailed (sign-in, the order's pages, the invoice PDF) is on
						// the shop's own address.
						for _, m := range s.mailsTo(email) {
							for _, u := range mailURL.FindAllString(m.Body+" "+m.HTML, -1) {
								if !strings.HasPrefix(u, base+"/") {
									t.Fatalf("mail %q links %q, want it on %s", m.Subject, u, base)
								}
							}
						}
					})
				}
			})
		}
	})
}

// mailURL finds the absolute links of a mail.
var mailURL = regexp.MustCompile(`https?://[^\s"'<>)]+`)

// sandboxBeside is a configuration enabling the sandbox next to live gateway m.
func sandboxBeside(m string, live bool) payment.Config {
	cfg := payment.Config{Modules: []string{"sandbox", m}}
	switch m {
	case "stripe":
		cfg.StripeSecretKey, cfg.StripeWebhookSecret = "sk_test_abc", "whsec_x"
		if live {
			cfg.StripeSecretKey = "sk_live_abc"
		}
	case "coinbase":
		// Any Ed25519 key: the start never calls Coinbase.
		cfg.CoinbaseKeyID, cfg.CoinbaseWebhookSecret = "key", "secret"
		cfg.CoinbaseKeySecret = base64.StdEncoding.EncodeToString(ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)))
	case "cryptomus":
		cfg.CryptomusMerchant, cfg.CryptomusAPIKey = "merchant", "key"
	}
	return cfg
}

// TestStartRefusesUnsafeSettings: a live gateway without STREAMCART_PUBLIC_URL, a public URL that
// is not an origin, and the sandbox beside a live gateway with live credentials (unless
// STREAMCART_TEST_MODE) stop the start with an error naming the setting or the conflict.
func TestStartRefusesUnsafeSettings(t *testing.T) {
	withPublic := func(p payment.Config) func(*app.Config) {
		return func(c *app.Config) { c.PublicURL, c.Payment = "https://shop.example", p }
	}
	testMode := func(p payment.Config) payment.Config { p.TestMode = true; return p }
	cases := []struct {
		name string
		cfg  func(*app.Config)
		want string // "" when the start succeeds
	}{
		{"stripe key without a public URL", func(c *app.Config) {
			c.Payment = payment.Config{StripeSecretKey: "sk_test_abc", StripeWebhookSecret: "w"}
		}, "STREAMCART_PUBLIC_URL is not set"},
		{"coinbase enabled without a public URL", func(c *app.Config) { c.Payment = payment.Config{Modules: []string{"coinbase"}} }, "STREAMCART_PUBLIC_URL"},
		{"cryptomus key without a public URL", func(c *app.Config) { c.Payment = payment.Config{CryptomusAPIKey: "k"} }, "gateway cryptomus is set up but STREAMCART_PUBLIC_URL"},
		{"public URL with a path", func(c *app.Config) { c.PublicURL = "https://shop.example/shop" }, "STREAMCART_PUBLIC_URL"},
		{"public URL without a scheme", func(c *app.Config) { c.PublicURL = "shop.example" }, "STREAMCART_PUBLIC_URL"},
		{"sandbox beside live stripe", withPublic(sandboxBeside("stripe", true)), "sandbox cannot be enabled next to stripe"},
		{"sandbox beside coinbase", withPublic(sandboxBeside("coinbase", true)), "sandbox cannot be enabled next to coinbase"},
		{"sandbox beside cryptomus", withPublic(sandboxBeside("cryptomus", true)), "sandbox cannot be enabled next to cryptomus"},
		{"sandbox beside test stripe", withPublic(sandboxBeside("stripe", false)), ""},
		{"sandbox beside live stripe in test mode", withPublic(testMode(sandboxBeside("stripe", true))), ""},
		{"sandbox beside coinbase in test mode", withPublic(testMode(sandboxBeside("coinbase", true))), ""},
		{"live stripe alone", withPublic(payment.Config{Modules: []string{"stripe"}, StripeSecretKey: "sk_live_abc", StripeWebhookSecret: "w"}), ""},
	}
	forEachBackend(t, func(t *testing.T) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				cfg := testConfig(t)
				tc.cfg(&cfg)
				a, err := app.Open(t.Context(), cfg, slog.New(slog.DiscardHandler))
				if a != nil {
					a.Close()
				}
				switch {
				case tc.want == "" && err != nil:
					t.Fatalf("start: %v, want it to succeed", err)
				case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
					t.Fatalf("start: %v, want an error naming %q", err, tc.want)
				case strings.Contains(tc.want, "sandbox") && !errors.Is(err, payment.ErrSandboxBesideLive):
					t.Fatalf("start: %v, want ErrSandboxBesideLive", err)
				}
			})
		}
	})
}

// TestCatalogCannotAddTheSandboxBesideLive: a running shop with live Stripe refuses a catalog
// import that would add the sandbox next to it, keeps the catalog in force (its sandbox page stays
// off), and takes such a catalog in test mode.
func TestCatalogCannotAddTheSandboxBesideLive(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		for _, tc := range []struct {
			name     string
			testMode bool
		}{{"live", false}, {"test mode", true}} {
			t.Run(tc.name, func(t *testing.T) {
				s := newShop(t, func(c *app.Config) {
					c.PublicURL = "https://shop.example"
					c.CatalogFile = catalogWithGateways(t, "stripe")
					c.Payment = payment.Config{StripeSecretKey: "sk_live_abc", StripeWebhookSecret: "whsec_x", TestMode: tc.testMode}
				})
				if _, err := app.ImportCatalog(t.Context(), s.app.Store(), catalogWithGateways(t, "stripe-sandbox")); err != nil {
					t.Fatal(err)
				}
				changed, err := s.app.RefreshCatalog(t.Context())
				if tc.testMode {
					if err != nil || !changed {
						t.Fatalf("RefreshCatalog in test mode = %v, %v; want the catalog taken", changed, err)
					}
					return
				}
				if changed || !errors.Is(err, payment.ErrSandboxBesideLive) {
					t.Fatalf("RefreshCatalog = %v, %v; want refused naming the conflict", changed, err)
				}
				if _, on := s.app.Catalog().Gateway("sandbox"); on {
					t.Fatal("the refused catalog's sandbox is in force")
				}
				if status, _, _ := s.raw(http.MethodGet, payment.SandboxPath+"inv_x", "", nil); status != http.StatusNotFound {
					t.Fatalf("sandbox page = %d, want 404", status)
				}
				// The same check refuses the file at start, before it is stored.
				cfg := testConfig(t)
				cfg.PublicURL, cfg.Payment = "https://shop.example", payment.Config{StripeSecretKey: "sk_live_abc", StripeWebhookSecret: "whsec_x"}
				cfg.CatalogFile = catalogWithGateways(t, "sandbox-stripe")
				if a, err := app.Open(t.Context(), cfg, slog.New(slog.DiscardHandler)); !errors.Is(err, payment.ErrSandboxBesideLive) {
					if a != nil {
						a.Close()
					}
					t.Fatalf("start with the catalog file: %v, want ErrSandboxBesideLive", err)
				}
			})
		}
	})
}

// TestSecurityHeaders: every API answer (errors included) says nosniff; HSTS only when the public
// URL is https; the sandbox page has a CSP allowing its own style and form only, nosniff and no
// referrer; the examples are served only with STREAMCART_EXAMPLES.
func TestSecurityHeaders(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		for _, tc := range []struct {
			name      string
			publicURL string
			examples  bool
			hsts      bool
		}{
			{name: "local", examples: true},
			{name: "http public URL", publicURL: "http://shop.example"},
			{name: "https public URL", publicURL: "https://shop.example", hsts: true},
		} {
			t.Run(tc.name, func(t *testing.T) {
				s := newShop(t, func(c *app.Config) { c.PublicURL, c.Examples = tc.publicURL, tc.examples })
				o := s.buy(s.identify("headers@example.com", "").Token, standard())
				for _, path := range []string{"/checkout/api/products", "/checkout/api/orders/ord_unknown", "/checkout/api/nothing", payment.SandboxPath + o.InvoiceID, "/checkout/"} {
					_, h, _ := s.raw(http.MethodGet, path, "", nil)
					if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
						t.Errorf("GET %s: X-Content-Type-Options %q, want nosniff", path, got)
					}
					if got := h.Get("Strict-Transport-Security"); (got != "") != tc.hsts || (tc.hsts && !strings.HasPrefix(got, "max-age=")) {
						t.Errorf("GET %s: Strict-Transport-Security %q, want it set: %v", path, got, tc.hsts)
					}
				}
				_, h, page := s.raw(http.MethodGet, payment.SandboxPath+o.InvoiceID, "", nil)
				csp := h.Get("Content-Security-Policy")
				// The hash allowed is the page's own style sheet's: the page is styled, nothing else is.
				style := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindSubmatch(page)
				if style == nil {
					t.Fatalf("sandbox page has no style sheet:\n%s", page)
				}
				sum := sha256.Sum256(style[1])
				if want := "style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(csp, want) {
					t.Errorf("sandbox page CSP %q does not allow its style sheet (%s)", csp, want)
				}
				for _, want := range []string{"default-src 'none'", "style-src 'sha256-", "form-action 'self'", "frame-ancestors 'none'"} {
					if !strings.Contains(csp, want) {
						t.Errorf("sandbox page CSP %q lacks %q", csp, want)
					}
				}
				if strings.Contains(csp, "unsafe") || strings.Contains(csp, "script-src") {
					t.Errorf("sandbox page CSP %q allows more than its style and form", csp)
				}
				if got := h.Get("Referrer-Policy"); got != "same-origin" {
					t.Errorf("sandbox page Referrer-Policy %q, want same-origin", got)
				}
				for _, path := range []string{"/examples/plain-html/", "/examples/strict-csp/"} {
					status, _, _ := s.raw(http.MethodGet, path, "", nil)
					if want := map[bool]int{true: http.StatusOK, false: http.StatusNotFound}[tc.examples]; status != want {
						t.Errorf("GET %s with examples %v = %d, want %d", path, tc.examples, status, want)
					}
				}
			})
		}
	})
}

// TestSandboxFormActionAllowsTheReturnSite: the CSP's form-action also covers the redirect after
// Pay, so a return URL on a listed site is allowed there, and only that site.
func TestSandboxFormActionAllowsTheReturnSite(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(c *app.Config) { c.PublicURL = "https://shop.example" })
		p := standard()
		p.ReturnURL = ptr("https://shop.example/thanks")
		o := s.buy(s.identify("form-action@example.com", "").Token, p)
		_, h, _ := s.raw(http.MethodGet, payment.SandboxPath+o.InvoiceID, "", nil)
		if csp := h.Get("Content-Security-Policy"); !strings.HasSuffix(csp, "form-action 'self' https://shop.example") {
			t.Fatalf("CSP %q, want form-action 'self' https://shop.example", csp)
		}
		if u, _ := url.Parse(o.PaymentURL); u.Host != "shop.example" {
			t.Fatalf("payment URL %q, want it on the public URL", o.PaymentURL)
		}
	})
}

// TestLinksOnTheListenAddress: without a public URL, links are on the address the shop listens
// on; an unspecified host (":8080", "0.0.0.0", "[::]") or the loopback address is localhost.
func TestLinksOnTheListenAddress(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		for _, tc := range []struct{ addr, want string }{
			{":8080", "http://localhost:8080"},
			{"0.0.0.0:9000", "http://localhost:9000"},
			{"[::]:8082", "http://localhost:8082"},
			{"127.0.0.1:8080", "http://localhost:8080"}, // make run's: the README's address
			{"[::1]:8081", "http://localhost:8081"},
			{"localhost:8083", "http://localhost:8083"},
			{"127.0.0.2:8084", "http://127.0.0.2:8084"},
			{"shop.internal:80", "http://shop.internal"},
		} {
			t.Run(tc.addr, func(t *testing.T) {
				s := newShop(t, func(c *app.Config) { c.Addr = tc.addr }) // Run is not called: nothing listens there
				o := s.buy(s.identify("listen@example.com", "").Token, standard())
				if want := tc.want + payment.SandboxPath + o.InvoiceID; o.PaymentURL != want {
					t.Fatalf("payment URL = %q, want %q", o.PaymentURL, want)
				}
			})
		}
	})
}

// TestLocalShopReturnsToTheBuyersOrigin: a local shop's links are on localhost (the README's
// address), and a buyer who opened it on 127.0.0.1 or [::1] instead may ask to come back there
// (same port): the session lives on that origin. Any other origin stays refused, and a public URL
// has no aliases.
func TestLocalShopReturnsToTheBuyersOrigin(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(c *app.Config) { c.Addr = "127.0.0.1:8080" })
		token := s.identify("alias@example.com", "").Token
		for _, ret := range []string{"http://127.0.0.1:8080/checkout/waiting?order={orderId}", "http://[::1]:8080/checkout/waiting?order={orderId}",
			"http://localhost:8080/checkout/waiting?order={orderId}"} {
			p := standard()
			p.ReturnURL = ptr(ret)
			o := s.buy(token, p)
			if !strings.HasPrefix(o.PaymentURL, "http://localhost:8080"+payment.SandboxPath) {
				t.Fatalf("payment URL %q, want it on http://localhost:8080", o.PaymentURL)
			}
		}
		for _, ret := range []string{"http://127.0.0.1:9090/checkout/", "http://127.0.0.2:8080/checkout/", "http://evil.example/checkout/"} {
			p := standard()
			p.ReturnURL = ptr(ret)
			p.Token = ptr(token)
			_, err := s.order.Create(t.Context(), &p)
			wantErr(t, err, "bad_request", "")
		}
		pub := newShop(t, func(c *app.Config) { c.Addr = "127.0.0.1:8080"; c.PublicURL = "https://shop.example" })
		p := standard()
		p.ReturnURL = ptr("http://127.0.0.1:8080/checkout/")
		p.Token = ptr(pub.identify("alias@example.com", "").Token)
		_, err := pub.order.Create(t.Context(), &p)
		wantErr(t, err, "bad_request", "")
	})
}
