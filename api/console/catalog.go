package console

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/clock"
)

// CatalogSetting names the settings row holding the catalog in force, which every replica's
// catalog poll reads.
const CatalogSetting = "catalog"

// CatalogStore keeps the catalog's versions.
type CatalogStore interface {
	// SaveCatalog keeps source as the next version and makes it the catalog (setting key).
	SaveCatalog(ctx context.Context, key string, source []byte, v CatalogVersion) (CatalogVersion, error)
	CatalogVersions(ctx context.Context) ([]CatalogVersion, error)
	CatalogVersion(ctx context.Context, version int64) (CatalogVersion, []byte, error)
	PromoUses(ctx context.Context, code string, now time.Time) (int, error)
}

// CatalogDeps is the store and the running shop the catalog's versions act on.
type CatalogDeps struct {
	Store CatalogStore
	// Source reads the catalog source in force from the store: the one last imported or saved,
	// else the demo catalog.
	Source func(ctx context.Context) ([]byte, error)
	// InForce is the running shop's catalog.
	InForce func() *catalog.Catalog
	// Check refuses a catalog the running shop cannot serve (a gateway without settings, the
	// sandbox next to a live gateway); nil accepts every valid one.
	Check func(c *catalog.Catalog) error
	// Legal reads the legal files a saved source's entries name: the files stored by the last
	// import (the console has no catalog folder). nil: the source's files are not read.
	Legal func(ctx context.Context, source []byte) (catalog.LegalReader, error)
	// Reload makes the stored catalog the running shop's at once.
	Reload func(ctx context.Context) error
	Now    func() time.Time
}

// Catalogs is the console's catalog: versions kept in the store, the one in force in the
// catalog setting.
type Catalogs struct{ d CatalogDeps }

// NewCatalogs returns the console's catalog.
func NewCatalogs(d CatalogDeps) *Catalogs {
	d.Now = clock.OrReal(d.Now)
	if d.Check == nil {
		d.Check = func(*catalog.Catalog) error { return nil }
	}
	return &Catalogs{d: d}
}

// Current is the catalog in force: its newest version, else the one imported before versions
// were kept (version 0).
func (c *Catalogs) Current(ctx context.Context) (CatalogVersion, []byte, error) {
	vs, err := c.d.Store.CatalogVersions(ctx)
	if err != nil {
		return CatalogVersion{}, nil, err
	}
	raw, err := c.d.Source(ctx)
	if err != nil {
		return CatalogVersion{}, nil, err
	}
	sum := sha256.Sum256(raw)
	if len(vs) > 0 && vs[0].SHA256 == hex.EncodeToString(sum[:]) {
		return vs[0], raw, nil
	}
	// Imported by the CLI since the last saved version, or never saved from the console.
	return CatalogVersion{SHA256: hex.EncodeToString(sum[:]), Comment: "in force (imported)"}, raw, nil
}

// Save validates source as `streamcart catalog check` does and makes it the catalog: a new
// version, served here at once and by other replicas at their next catalog poll. A bad source
// is a *catalog.ValidationError, one the shop cannot serve an ErrCatalogGateway; either changes
// nothing.
func (c *Catalogs) Save(ctx context.Context, source []byte, operator, comment string) (CatalogVersion, error) {
	return c.Publish(ctx, source, operator, comment, "")
}

// Check validates source as Save does (`streamcart catalog check`, the legal files, what the
// running shop can serve), changing nothing: a *catalog.ValidationError or an ErrCatalogGateway.
func (c *Catalogs) Check(ctx context.Context, source []byte) error {
	_, err := c.check(ctx, source)
	return err
}

func (c *Catalogs) check(ctx context.Context, source []byte) (*catalog.Catalog, error) {
	cat, err := catalog.Parse("catalog", source)
	if err != nil {
		return nil, err
	}
	if c.d.Legal != nil {
		read, err := c.d.Legal(ctx, source)
		if err != nil {
			return nil, err
		}
		if err := cat.ReadLegal("catalog", read); err != nil {
			return nil, err
		}
	}
	if err := c.d.Check(cat); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCatalogGateway, err)
	}
	return cat, nil
}

// Publish is Save guarded by base, the SHA-256 of the catalog the draft was made from: when
// base is set and another catalog is in force, ErrStale and nothing changes (checked in the
// store's transaction, under its catalog lock, so of concurrent publishes of one draft one
// makes a version).
func (c *Catalogs) Publish(ctx context.Context, source []byte, operator, comment, base string) (CatalogVersion, error) {
	if _, err := c.check(ctx, source); err != nil {
		return CatalogVersion{}, err
	}
	cur, raw, err := c.Current(ctx)
	if err != nil {
		return CatalogVersion{}, err
	}
	// The catalog in force may be the demo or a file never stored: compare with what is read.
	if base != "" && sha(raw) != base {
		return CatalogVersion{}, ErrStale
	}
	var before []byte
	if cur.Version == 0 {
		before = raw
	}
	sum := sha256.Sum256(source)
	v, err := c.d.Store.SaveCatalog(ctx, CatalogSetting, source, CatalogVersion{Operator: operator, Comment: comment,
		SHA256: hex.EncodeToString(sum[:]), CreatedAt: c.d.Now().UTC(), Base: base, Before: before})
	if err != nil {
		return v, err
	}
	return v, c.d.Reload(ctx)
}

func sha(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Form is the catalog in force as the console's form edits it, with its version.
func (c *Catalogs) Form(ctx context.Context) (Form, error) {
	_, raw, err := c.Current(ctx)
	if err != nil {
		return Form{}, err
	}
	return ReadForm(raw, c.d.InForce(), c.d.Now())
}

// Draft writes f (when not nil) into source (the catalog in force when empty) and answers the
// new source, its unified diff against the catalog in force, and the in-force SHA-256 to publish
// it against. Nothing is stored. An ErrForm when f does not fit the source.
func (c *Catalogs) Draft(ctx context.Context, source []byte, f *Form) (out []byte, diff, base string, err error) {
	v, raw, err := c.Current(ctx)
	if err != nil {
		return nil, "", "", err
	}
	out = source
	if len(out) == 0 {
		out = raw
	}
	if f != nil {
		if out, err = WriteForm(out, *f); err != nil {
			return nil, "", "", err
		}
	}
	from := "version " + strconv.FormatInt(v.Version, 10)
	if v.Version == 0 {
		from = "catalog in force"
	}
	return out, Diff(from, "draft", raw, out), v.SHA256, nil
}

// Versions lists the saved versions, newest first.
func (c *Catalogs) Versions(ctx context.Context) ([]CatalogVersion, error) {
	return c.d.Store.CatalogVersions(ctx)
}

// Version reads one saved version.
func (c *Catalogs) Version(ctx context.Context, n int64) (CatalogVersion, []byte, error) {
	return c.d.Store.CatalogVersion(ctx, n)
}

// Catalog is the catalog in force.
func (c *Catalogs) Catalog() *catalog.Catalog { return c.d.InForce() }

// PromoStatus is p's status today on the shop's clock.
func (c *Catalogs) PromoStatus(p catalog.Promotion) string { return PromoStatus(p, c.d.Now()) }

// PromoUses counts a promotion's uses now.
func (c *Catalogs) PromoUses(ctx context.Context, code string) (int, error) {
	return c.d.Store.PromoUses(ctx, code, c.d.Now())
}

// EditPromotion saves a new catalog version with the promotion code changed (or added, when add)
// as ch says. ErrNotFound when code is not in the catalog (not add); ErrExists when add and it is.
func (c *Catalogs) EditPromotion(ctx context.Context, code string, add bool, ch PromotionChange, operator string) (CatalogVersion, error) {
	_, raw, err := c.Current(ctx)
	if err != nil {
		return CatalogVersion{}, err
	}
	edited, err := ch.Apply(raw, code, add)
	if err != nil {
		return CatalogVersion{}, err
	}
	what := "promotion " + code + " changed"
	if add {
		what = "promotion " + code + " added"
	}
	return c.Save(ctx, edited, operator, what)
}
