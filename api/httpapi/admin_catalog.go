package httpapi

import (
	"context"
	"errors"

	genadmincatalog "github.com/streamcart/streamcart/gen/admin_catalog"
)

type adminCatalog struct{ admin }

func (s adminCatalog) Get(ctx context.Context, p *genadmincatalog.GetPayload) (*genadmincatalog.AdminCatalogResult, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}

func (s adminCatalog) Put(ctx context.Context, p *genadmincatalog.PutPayload) (*genadmincatalog.AdminCatalogResult, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}

func (s adminCatalog) Versions(ctx context.Context, p *genadmincatalog.VersionsPayload) (*genadmincatalog.VersionsResult, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}

func (s adminCatalog) Version(ctx context.Context, p *genadmincatalog.VersionPayload) (*genadmincatalog.AdminCatalogResult, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}
