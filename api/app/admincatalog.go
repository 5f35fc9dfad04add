package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/store"
)

// adminCatalog is the console's catalog: versions kept in the store, the one in force in the
// catalog setting that every replica's catalog poll reads.
type adminCatalog struct {
	a   *App
	now func() time.Time
}

// Current is the catalog in force: its newest version, else the one imported before versions
// were kept (version 0).
func (c adminCatalog) Current(ctx context.Context) (console.CatalogVersion, []byte, error) {
	vs, err := c.a.store.CatalogVersions(ctx)
	if err != nil {
		return console.CatalogVersion{}, nil, err
	}
	raw, err := c.a.store.Setting(ctx, settingCatalog)
	if errors.Is(err, store.ErrNotFound) {
		raw, err = catalog.DemoYAML(), nil
	}
	if err != nil {
		return console.CatalogVersion{}, nil, err
	}
	sum := sha256.Sum256(raw)
	if len(vs) > 0 && vs[0].SHA256 == hex.EncodeToString(sum[:]) {
		return vs[0], raw, nil
	}
	// Imported by the CLI since the last saved version, or never saved from the console.
	return console.CatalogVersion{SHA256: hex.EncodeToString(sum[:]), Comment: "in force (imported)"}, raw, nil
}

// Save validates source as `streamcart catalog check` does and makes it the catalog: a new
// version, served here at once and by other replicas at their next catalog poll. A bad source
// is a *catalog.ValidationError and changes nothing.
func (c adminCatalog) Save(ctx context.Context, source []byte, operator, comment string) (console.CatalogVersion, error) {
	cat, err := catalog.Parse("catalog", source)
	if err != nil {
		return console.CatalogVersion{}, err
	}
	if len(c.a.cfg.Payment.Modules) == 0 {
		if err := c.a.gatewaysBuilt(cat); err != nil {
			return console.CatalogVersion{}, fmt.Errorf("%w: %v", console.ErrCatalogGateway, err)
		}
		if err := CheckCatalog(c.a.cfg, cat); err != nil {
			return console.CatalogVersion{}, fmt.Errorf("%w: %v", console.ErrCatalogGateway, err)
		}
	}
	sum := sha256.Sum256(source)
	v, err := c.a.store.SaveCatalog(ctx, settingCatalog, source, console.CatalogVersion{Operator: operator, Comment: comment,
		SHA256: hex.EncodeToString(sum[:]), CreatedAt: c.now().UTC()})
	if err != nil {
		return v, err
	}
	if _, err := c.a.RefreshCatalog(ctx); err != nil {
		return v, err
	}
	return v, nil
}

// Versions lists the saved versions, newest first.
func (c adminCatalog) Versions(ctx context.Context) ([]console.CatalogVersion, error) {
	return c.a.store.CatalogVersions(ctx)
}

// Version reads one saved version.
func (c adminCatalog) Version(ctx context.Context, n int64) (console.CatalogVersion, []byte, error) {
	return c.a.store.CatalogVersion(ctx, n)
}

// Catalog is the catalog in force.
func (c adminCatalog) Catalog() *catalog.Catalog { return c.a.Catalog() }

// PromoUses counts a promotion's uses now.
func (c adminCatalog) PromoUses(ctx context.Context, code string) (int, error) {
	return c.a.store.PromoUses(ctx, code, c.now())
}

// EditPromotion saves a new catalog version with the promotion code changed (or added, when add)
// as ch says. ErrNotFound when code is not in the catalog (not add); ErrExists when add and it is.
func (c adminCatalog) EditPromotion(ctx context.Context, code string, add bool, ch console.PromotionChange, operator string) (console.CatalogVersion, error) {
	_, raw, err := c.Current(ctx)
	if err != nil {
		return console.CatalogVersion{}, err
	}
	edited, err := ch.Apply(raw, code, add)
	if err != nil {
		return console.CatalogVersion{}, err
	}
	what := "promotion " + code + " changed"
	if add {
		what = "promotion " + code + " added"
	}
	return c.Save(ctx, edited, operator, what)
}
