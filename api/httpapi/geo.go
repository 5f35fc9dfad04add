package httpapi

import (
	"context"

	"github.com/streamcart/streamcart/api/geo"
	gengeo "github.com/streamcart/streamcart/gen/geo"
)

type geoService struct{ lookup *geo.Lookup }

// NewGeo returns the country lookup service; a nil lookup answers XX (lookup failed).
func NewGeo(l *geo.Lookup) gengeo.Service { return &geoService{lookup: l} }

// Lookup returns the caller's address and country.
func (s *geoService) Lookup(ctx context.Context) (*gengeo.LookupResult, error) {
	ip := clientIP(ctx)
	return &gengeo.LookupResult{IP: ip.String(), Country: s.lookup.Country(ip)}, nil
}
