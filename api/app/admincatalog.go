package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"gopkg.in/yaml.v3"

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
// by edit on its YAML mapping. ErrNotFound when code is not in the catalog (not add); ErrExists
// when add and it is.
func (c adminCatalog) EditPromotion(ctx context.Context, code string, add bool, ch console.PromotionChange, operator string) (console.CatalogVersion, error) {
	_, raw, err := c.Current(ctx)
	if err != nil {
		return console.CatalogVersion{}, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return console.CatalogVersion{}, fmt.Errorf("edit promotion: the catalog in force is not a mapping")
	}
	root := doc.Content[0]
	var list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "promotions" {
			list = root.Content[i+1]
		}
	}
	if list == nil {
		list = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "promotions"}, list)
	}
	var item *yaml.Node
	for _, n := range list.Content {
		if n.Kind == yaml.MappingNode && field(n, "code") != nil && field(n, "code").Value == code {
			item = n
		}
	}
	switch {
	case add && item != nil:
		return console.CatalogVersion{}, console.ErrExists
	case !add && item == nil:
		return console.CatalogVersion{}, console.ErrNotFound
	case add:
		item = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		list.Content = append(list.Content, item)
		list.Style = 0
		setField(item, "code", str(code))
	}
	if ch.Type != nil {
		setField(item, "type", str(*ch.Type))
	}
	if ch.Value != nil {
		setField(item, "value", str(*ch.Value))
	}
	if ch.AppliesTo != nil {
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for _, pid := range ch.AppliesTo {
			seq.Content = append(seq.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(pid)})
		}
		setField(item, "appliesTo", seq)
	}
	date := func(s string) *yaml.Node {
		if s == "" {
			s = catalog.NoDate
		}
		return str(s)
	}
	if ch.StartDate != nil {
		setField(item, "startDate", date(*ch.StartDate))
	}
	if ch.ExpirationDate != nil {
		setField(item, "expirationDate", date(*ch.ExpirationDate))
	}
	if ch.MaxUses != nil {
		setField(item, "maxUses", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(*ch.MaxUses)})
	}
	if ch.Recurring != nil {
		setField(item, "recurring", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(*ch.Recurring)})
	}
	if ch.Disabled != nil {
		setField(item, "disabled", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(*ch.Disabled)})
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return console.CatalogVersion{}, fmt.Errorf("edit promotion: %w", err)
	}
	what := "promotion " + code + " changed"
	if add {
		what = "promotion " + code + " added"
	}
	return c.Save(ctx, out.Bytes(), operator, what)
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func field(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func setField(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, str(key), v)
}
