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
)

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
	return &gen.AdminCatalogResult{Version: catalogVersion(v), Source: string(src)}, nil
}

func (s adminCatalog) Put(ctx context.Context, p *gen.PutPayload) (*gen.AdminCatalogResult, error) {
	pr, err := s.allow(ctx, p.Session, authz.OpEditCatalog)
	if err != nil {
		return nil, err
	}
	v, err := s.Catalog.Save(ctx, []byte(p.Source), pr.Email, deref(p.Comment))
	detail := deref(p.Comment)
	if err == nil {
		detail = "version " + itoa64(v.Version) + ": " + detail
	}
	s.Audit.RecordOperator(ctx, pr.Email, "catalog-save", "catalog", detail, err)
	if probs, ok := catalogProblems(err); ok {
		e := &gen.InvalidCatalog{Name: "invalid_catalog", Message: msgInvalidCatalog, Problems: []*gen.AdminCatalogProblem{}}
		for _, x := range probs {
			e.Problems = append(e.Problems, &gen.AdminCatalogProblem{Line: x.Line, Path: x.Path, Message: x.Msg})
		}
		return nil, e
	}
	if err != nil {
		if errors.Is(err, console.ErrCatalogGateway) {
			return nil, gen.MakeConflict(errors.New(err.Error()))
		}
		return nil, err
	}
	return &gen.AdminCatalogResult{Version: catalogVersion(v), Source: p.Source}, nil
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
	return &gen.AdminCatalogResult{Version: catalogVersion(v), Source: string(src)}, nil
}
