package console_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// shopFake is the running shop the console's catalog feeds: the catalog in force, reloaded from
// the store on demand, and what it refuses.
type shopFake struct {
	st      store.Backend
	inForce *catalog.Catalog
	reloads int
	refuse  error // Check's answer
	fail    error // Reload's answer
}

func (s *shopFake) source(ctx context.Context) ([]byte, error) {
	raw, err := s.st.Setting(ctx, console.CatalogSetting)
	if errors.Is(err, store.ErrNotFound) {
		return catalog.DemoYAML(), nil
	}
	return raw, err
}

func (s *shopFake) reload(ctx context.Context) error {
	s.reloads++
	if s.fail != nil {
		return s.fail
	}
	raw, err := s.source(ctx)
	if err != nil {
		return err
	}
	s.inForce, err = catalog.Parse("reloaded", raw)
	return err
}

func newCatalogs(t *testing.T, b storetest.Backend, now time.Time) (*console.Catalogs, *shopFake) {
	shop := &shopFake{st: b.Open(t), inForce: catalog.Demo()}
	return console.NewCatalogs(console.CatalogDeps{Store: shop.st, Source: shop.source,
		InForce: func() *catalog.Catalog { return shop.inForce },
		Check:   func(*catalog.Catalog) error { return shop.refuse },
		Reload:  shop.reload, Now: func() time.Time { return now }}), shop
}

// withPromotion is the demo catalog's source with WELCOME10 worth value percent.
func withPromotion(t *testing.T, value string) []byte {
	t.Helper()
	out, err := console.PromotionChange{Value: &value}.Apply(catalog.DemoYAML(), "WELCOME10", false)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Before anything is saved the demo catalog is in force, as version 0; each save that passes the
// checks is the next version, in force here at once; one that fails any check changes nothing.
func TestCatalogsSave(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.FixedZone("CET", 3600))
		c, shop := newCatalogs(t, b, t0)
		ctx := t.Context()
		v, raw, err := c.Current(ctx)
		if err != nil || v.Version != 0 || v.Comment != "in force (imported)" || string(raw) != string(catalog.DemoYAML()) {
			t.Fatalf("nothing saved: Current = %+v, %d bytes, %v; want the demo catalog as version 0", v, len(raw), err)
		}
		gatewayless := errors.New("no settings for gateway stripe")
		steps := []struct {
			name        string
			source      []byte
			refuse      error
			fail        error
			wantErr     error // nil: saved as wantVersion
			wantVersion int64
			wantValue   string // WELCOME10's value in force after the step
		}{
			// The demo catalog in force, never kept, becomes version 1 first: a rollback can reach it.
			{name: "a valid catalog", source: withPromotion(t, "15"), wantVersion: 2, wantValue: "15"},
			{name: "invalid YAML", source: []byte("plans: ["), wantErr: &catalog.ValidationError{}, wantVersion: 2, wantValue: "15"},
			{name: "refused by the shop", source: withPromotion(t, "20"), refuse: gatewayless, wantErr: console.ErrCatalogGateway, wantVersion: 2, wantValue: "15"},
			{name: "another valid one", source: withPromotion(t, "25"), wantVersion: 3, wantValue: "25"},
		}
		for _, s := range steps {
			shop.refuse, shop.fail = s.refuse, s.fail
			reloads := shop.reloads
			got, err := c.Save(ctx, s.source, "op@example.com", s.name)
			switch ve := (*catalog.ValidationError)(nil); {
			case s.wantErr == nil && err != nil:
				t.Fatalf("%s: %v", s.name, err)
			case s.wantErr == nil && (got.Version != s.wantVersion || got.Operator != "op@example.com" || got.Comment != s.name || !got.CreatedAt.Equal(t0) || got.CreatedAt.Location() != time.UTC):
				t.Fatalf("%s: saved %+v, want version %d by op@example.com at %s UTC", s.name, got, s.wantVersion, t0)
			case s.wantErr == nil && shop.reloads != reloads+1:
				t.Fatalf("%s: saved but not reloaded", s.name)
			case errors.As(s.wantErr, &ve) && !errors.As(err, &ve), s.wantErr != nil && !errors.As(s.wantErr, &ve) && !errors.Is(err, s.wantErr):
				t.Fatalf("%s: error %v, want %T %v", s.name, err, s.wantErr, s.wantErr)
			case s.wantErr != nil && shop.reloads != reloads:
				t.Fatalf("%s: refused but reloaded", s.name)
			}
			if s.refuse != nil && !strings.Contains(err.Error(), s.refuse.Error()) {
				t.Errorf("%s: error %q does not say why (%q)", s.name, err, s.refuse)
			}
			cur, raw, err := c.Current(ctx)
			if err != nil || cur.Version != s.wantVersion {
				t.Fatalf("%s: Current = %+v, %v; want version %d", s.name, cur, err, s.wantVersion)
			}
			if p, _ := c.Catalog().Promotion("WELCOME10"); p.Value != s.wantValue {
				t.Fatalf("%s: WELCOME10 in force is worth %s, want %s", s.name, p.Value, s.wantValue)
			}
			if _, src, err := c.Version(ctx, s.wantVersion); err != nil || string(src) != string(raw) {
				t.Fatalf("%s: version %d reads %d bytes, %v; want the source in force", s.name, s.wantVersion, len(src), err)
			}
		}
		vs, err := c.Versions(ctx)
		if err != nil || len(vs) != 3 || vs[0].Version != 3 || vs[1].Version != 2 || vs[2].Version != 1 || vs[2].Operator != "" {
			t.Fatalf("Versions = %+v, %v; want 3, 2, then the demo as 1", vs, err)
		}
		if _, src, err := c.Version(ctx, 1); err != nil || string(src) != string(catalog.DemoYAML()) {
			t.Fatalf("Version(1) = %d bytes, %v; want the demo catalog", len(src), err)
		}
		if _, _, err := c.Version(ctx, 4); !errors.Is(err, console.ErrNotFound) {
			t.Fatalf("Version(4) = %v, want ErrNotFound", err)
		}

		// A reload that fails is reported; the version is saved all the same (other replicas
		// take it at their next poll).
		shop.fail = errors.New("reload failed")
		if v, err := c.Save(ctx, withPromotion(t, "30"), "op@example.com", "reload fails"); !errors.Is(err, shop.fail) || v.Version != 4 {
			t.Fatalf("Save with a failing reload = %+v, %v; want version 4 and the reload's error", v, err)
		}

		// A catalog put in force without a version (as before versions were kept) is version 0.
		if err := shop.st.PutSetting(ctx, console.CatalogSetting, withPromotion(t, "35")); err != nil {
			t.Fatal(err)
		}
		if v, raw, err := c.Current(ctx); err != nil || v.Version != 0 || v.Comment != "in force (imported)" || string(raw) != string(withPromotion(t, "35")) {
			t.Fatalf("after a catalog written without a version: Current = %+v, %v; want version 0 with that source", v, err)
		}
	})
}

// Editing a promotion saves the catalog in force with that one change, as a version saying which
// code changed; an unknown code, or adding one that exists, saves nothing.
func TestCatalogsEditPromotion(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		c, _ := newCatalogs(t, b, time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC))
		ctx := t.Context()
		cases := []struct {
			code        string
			add         bool
			change      console.PromotionChange
			wantErr     error
			wantVersion int64
			wantComment string
		}{
			// Version 1 is the demo catalog in force before the first change.
			{"WELCOME10", false, console.PromotionChange{Value: ptr("12")}, nil, 2, "promotion WELCOME10 changed"},
			{"SPRING20", true, console.PromotionChange{Type: ptr("Percentage"), Value: ptr("20"), AppliesTo: []int{2}}, nil, 3, "promotion SPRING20 added"},
			{"SPRING20", true, console.PromotionChange{Value: ptr("1")}, console.ErrExists, 3, ""},
			{"NOPE", false, console.PromotionChange{Value: ptr("1")}, console.ErrNotFound, 3, ""},
			{"SPRING20", false, console.PromotionChange{Disabled: ptr(true)}, nil, 4, "promotion SPRING20 changed"},
		}
		for _, tc := range cases {
			v, err := c.EditPromotion(ctx, tc.code, tc.add, tc.change, "op@example.com")
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("%s (add %v): %v, want %v", tc.code, tc.add, err, tc.wantErr)
				}
			} else if err != nil || v.Version != tc.wantVersion || v.Comment != tc.wantComment || v.Operator != "op@example.com" {
				t.Fatalf("%s (add %v): %+v, %v; want version %d %q", tc.code, tc.add, v, err, tc.wantVersion, tc.wantComment)
			}
			if vs, err := c.Versions(ctx); err != nil || len(vs) != int(tc.wantVersion) {
				t.Fatalf("%s (add %v): %d versions, %v; want %d", tc.code, tc.add, len(vs), err, tc.wantVersion)
			}
		}
		welcome, _ := c.Catalog().Promotion("WELCOME10")
		spring, ok := c.Catalog().Promotion("SPRING20")
		if welcome.Value != "12" || !ok || spring.Value != "20" || !spring.Disabled {
			t.Fatalf("in force: WELCOME10 %+v, SPRING20 %+v (%v); want 12, and 20 switched off", welcome, spring, ok)
		}
		if n, err := c.PromoUses(ctx, "WELCOME10"); err != nil || n != 0 {
			t.Fatalf("PromoUses(WELCOME10) = %d, %v; want 0 on a shop with no orders", n, err)
		}
	})
}
