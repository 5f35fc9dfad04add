package httpapi

import (
	"context"
	"errors"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/console"
	gen "github.com/streamcart/streamcart/gen/admin_catalog"
)

const (
	msgInvalidCatalog = "The catalog does not pass the check: nothing was changed."
	msgNoVersion      = "No such catalog version."
	msgStaleCatalog   = "The catalog changed since this draft was made (another version is in force now): nothing was changed. Review the draft again."
	msgFormMismatch   = "The form does not fit the catalog: nothing was changed."
)

// invalidCatalog is the 400 answer for a catalog's problems: every one, the first one's line and
// field at the top.
func invalidCatalog(probs []catalog.Problem) *gen.InvalidCatalog {
	e := &gen.InvalidCatalog{Name: "invalid_catalog", Message: msgInvalidCatalog, Problems: []*gen.AdminCatalogProblem{}}
	for _, x := range probs {
		e.Problems = append(e.Problems, &gen.AdminCatalogProblem{Line: x.Line, Path: x.Path, Field: x.Path, Message: x.Msg})
	}
	if len(probs) > 0 {
		e.Line, e.Field = probs[0].Line, probs[0].Path
	}
	return e
}

func prices(p console.Prices) map[string]map[string]string {
	out := map[string]map[string]string{}
	for c, m := range p {
		out[c] = map[string]string{}
		for cur, v := range m {
			out[c][cur] = v
		}
	}
	return out
}

func formOption(o *console.FormOption) *gen.AdminCatalogFormOption {
	if o == nil {
		return nil
	}
	return &gen.AdminCatalogFormOption{ID: o.ID, Name: o.Name, MaxQty: o.MaxQty, Prices: prices(o.Prices)}
}

func consoleOption(o *gen.AdminCatalogFormOption) *console.FormOption {
	if o == nil {
		return nil
	}
	return &console.FormOption{ID: o.ID, Name: o.Name, MaxQty: o.MaxQty, Prices: console.Prices(o.Prices)}
}

func catalogForm(f console.Form) *gen.AdminCatalogForm {
	out := &gen.AdminCatalogForm{DefaultCurrency: f.DefaultCurrency, Currencies: f.Currencies, Cycles: f.Cycles,
		Plans: []*gen.AdminCatalogFormPlan{}, Extras: formOption(f.Extras), Proxy: formOption(f.Proxy),
		Promotions: []*gen.AdminCatalogFormPromotion{}, Storefronts: []*gen.AdminCatalogFormStorefront{}}
	for _, p := range f.Plans {
		out.Plans = append(out.Plans, &gen.AdminCatalogFormPlan{Pid: p.PID, Group: p.Group, Name: p.Name, Trial: p.Trial,
			Extras: p.Extras, Proxy: p.Proxy, Prices: prices(p.Prices)})
	}
	for _, p := range f.Promotions {
		status := p.Status
		products := p.Products
		if products == nil {
			products = []string{}
		}
		out.Promotions = append(out.Promotions, &gen.AdminCatalogFormPromotion{Code: p.Code, Type: p.Type, Value: p.Value,
			AppliesTo: p.AppliesTo, Products: products, StartDate: p.StartDate, ExpirationDate: p.ExpirationDate,
			MaxUses: p.MaxUses, Recurring: p.Recurring, Disabled: p.Disabled, Status: &status})
	}
	for _, s := range f.Storefronts {
		def := s.Default
		out.Storefronts = append(out.Storefronts, &gen.AdminCatalogFormStorefront{Key: s.Key, Name: s.Name, Default: &def,
			DefaultCurrency: s.DefaultCurrency, DefaultLocale: s.DefaultLocale, AllowedOrigins: s.AllowedOrigins})
	}
	return out
}

func consoleForm(f *gen.AdminCatalogForm) *console.Form {
	if f == nil {
		return nil
	}
	out := &console.Form{DefaultCurrency: f.DefaultCurrency, Extras: consoleOption(f.Extras), Proxy: consoleOption(f.Proxy)}
	for _, p := range f.Plans {
		if p != nil {
			out.Plans = append(out.Plans, console.FormPlan{PID: p.Pid, Group: p.Group, Name: p.Name, Trial: p.Trial,
				Extras: p.Extras, Proxy: p.Proxy, Prices: console.Prices(p.Prices)})
		}
	}
	for _, p := range f.Promotions {
		if p != nil {
			out.Promotions = append(out.Promotions, console.FormPromotion{Code: p.Code, Type: p.Type, Value: p.Value,
				AppliesTo: p.AppliesTo, StartDate: p.StartDate, ExpirationDate: p.ExpirationDate, MaxUses: p.MaxUses,
				Recurring: p.Recurring, Disabled: p.Disabled})
		}
	}
	for _, s := range f.Storefronts {
		if s != nil {
			out.Storefronts = append(out.Storefronts, console.FormStorefront{Key: s.Key, Name: s.Name,
				DefaultCurrency: s.DefaultCurrency, DefaultLocale: s.DefaultLocale, AllowedOrigins: s.AllowedOrigins})
		}
	}
	return out
}

type adminCatalog struct{ admin }

func catalogVersion(v console.CatalogVersion) *gen.AdminCatalogVersion {
	return &gen.AdminCatalogVersion{Version: v.Version, Operator: v.Operator, Comment: v.Comment, Sha256: v.SHA256, CreatedAt: rfc3339(v.CreatedAt)}
}

// catalogProblems lists a validation error's problems; false when err is not one.
func catalogProblems(err error) ([]catalog.Problem, bool) {
	var ve *catalog.ValidationError
	if !errors.As(err, &ve) {
		return nil, false
	}
	return ve.Problems, true
}

func (s adminCatalog) Get(ctx context.Context, p *gen.GetPayload) (*gen.AdminCatalogResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpRead); err != nil {
		return nil, err
	}
	v, src, err := s.Catalog.Current(ctx)
	if err != nil {
		return nil, err
	}
	res := &gen.AdminCatalogResult{Version: catalogVersion(v), Source: string(src), Published: v.Version > 0}
	if f, err := s.Catalog.Form(ctx); err == nil {
		res.Form = catalogForm(f)
	}
	return res, nil
}

func (s adminCatalog) Check(ctx context.Context, p *gen.CheckPayload) (*gen.CheckResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpRead); err != nil {
		return nil, err
	}
	err := s.Catalog.Check(ctx, []byte(p.Source))
	if probs, ok := catalogProblems(err); ok {
		return nil, invalidCatalog(probs)
	}
	if errors.Is(err, console.ErrCatalogGateway) {
		return nil, invalidCatalog([]catalog.Problem{{Path: "gateways", Msg: err.Error()}})
	}
	if err != nil {
		return nil, err
	}
	return &gen.CheckResult{OK: true}, nil
}

func (s adminCatalog) Draft(ctx context.Context, p *gen.DraftPayload) (*gen.DraftResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpEditCatalog); err != nil {
		return nil, err
	}
	out, diff, base, err := s.Catalog.Draft(ctx, []byte(deref(p.Source)), consoleForm(p.Form))
	if errors.Is(err, console.ErrForm) {
		return nil, gen.MakeBadRequest(errors.New(msgFormMismatch + " " + err.Error()))
	}
	if err != nil {
		return nil, err
	}
	return &gen.DraftResult{Source: string(out), Diff: diff, Base: base}, nil
}

func (s adminCatalog) Put(ctx context.Context, p *gen.PutPayload) (*gen.AdminCatalogResult, error) {
	pr, err := s.allow(ctx, p.Session, authz.OpEditCatalog)
	if err != nil {
		return nil, err
	}
	v, err := s.Catalog.Publish(ctx, []byte(p.Source), pr.Email, deref(p.Comment), deref(p.Base))
	detail := deref(p.Comment)
	if err == nil {
		detail = "version " + itoa64(v.Version) + ": " + detail
	}
	s.Audit.RecordOperator(ctx, pr.Email, "catalog-save", "catalog", detail, err)
	if probs, ok := catalogProblems(err); ok {
		return nil, invalidCatalog(probs)
	}
	if err != nil {
		if errors.Is(err, console.ErrStale) {
			return nil, gen.MakeConflict(errors.New(msgStaleCatalog))
		}
		if errors.Is(err, console.ErrCatalogGateway) {
			return nil, gen.MakeConflict(errors.New(err.Error()))
		}
		return nil, err
	}
	return &gen.AdminCatalogResult{Version: catalogVersion(v), Source: p.Source, Published: true}, nil
}

func (s adminCatalog) Versions(ctx context.Context, p *gen.VersionsPayload) (*gen.VersionsResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpRead); err != nil {
		return nil, err
	}
	vs, err := s.Catalog.Versions(ctx)
	if err != nil {
		return nil, err
	}
	res := &gen.VersionsResult{Versions: []*gen.AdminCatalogVersion{}}
	for _, v := range vs {
		res.Versions = append(res.Versions, catalogVersion(v))
	}
	return res, nil
}

func (s adminCatalog) Version(ctx context.Context, p *gen.VersionPayload) (*gen.AdminCatalogResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpRead); err != nil {
		return nil, err
	}
	v, src, err := s.Catalog.Version(ctx, p.Version)
	if errors.Is(err, console.ErrNotFound) {
		return nil, gen.MakeNotFound(errors.New(msgNoVersion))
	}
	if err != nil {
		return nil, err
	}
	return &gen.AdminCatalogResult{Version: catalogVersion(v), Source: string(src), Published: true}, nil
}
