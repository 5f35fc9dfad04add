package httpapi

import (
	"context"
	"errors"
	"strconv"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/linedrift"
	gen "github.com/streamcart/streamcart/gen/admin_panel"
)

// PanelAdmin is what the console reads of the panel: the drift the reconciliation recorded, the
// cached credit balance and which plans it covers.
type PanelAdmin interface {
	// DriftPage lists recorded drifts newest first, older than before (0: from the newest).
	DriftPage(ctx context.Context, before int64, limit int) ([]linedrift.Drift, error)
	// Credits is the balance as last read and whether there is one; Alert the low-water mark
	// (negative: none); Low whether the balance is at or under it.
	Credits() (float64, bool)
	Alert() float64
	Low() bool
	Available(p catalog.Product) bool
}

type adminPanel struct{ admin }

// Drift lists the line drift, newest first; the cursor is the last id seen.
func (s adminPanel) Drift(ctx context.Context, p *gen.DriftPayload) (*gen.DriftResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpRead); err != nil {
		return nil, err
	}
	var before int64
	if c := deref(p.Cursor); c != "" {
		n, err := strconv.ParseInt(c, 10, 64)
		if err != nil || n <= 0 {
			return nil, gen.MakeBadRequest(errors.New(msgBadCursor))
		}
		before = n
	}
	res := &gen.DriftResult{Drifts: []*gen.AdminLineDrift{}}
	if s.Panel == nil {
		return res, nil
	}
	ds, err := s.Panel.DriftPage(ctx, before, p.Limit+1)
	if err != nil {
		return nil, err
	}
	if len(ds) > p.Limit {
		ds = ds[:p.Limit]
		res.NextCursor = strconv.FormatInt(ds[len(ds)-1].ID, 10)
	}
	for _, d := range ds {
		res.Drifts = append(res.Drifts, &gen.AdminLineDrift{ID: d.ID, At: rfc3339(d.At), RunID: d.RunID, ServiceID: d.ServiceID,
			Username: d.Username, Kind: d.Kind, Want: d.Want, Found: d.Found, Action: d.Action, Error: d.Error})
	}
	return res, nil
}

// Credits is the console's banner: the balance, the mark, the plans shown unavailable.
func (s adminPanel) Credits(ctx context.Context, p *gen.CreditsPayload) (*gen.CreditsResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpRead); err != nil {
		return nil, err
	}
	res := &gen.CreditsResult{Alert: -1, Unavailable: []string{}}
	if s.Panel == nil {
		return res, nil
	}
	res.Balance, res.Known = s.Panel.Credits()
	res.Alert, res.Low = s.Panel.Alert(), s.Panel.Low()
	for _, pr := range s.Catalog.Catalog().Plans() {
		if !s.Panel.Available(pr) {
			res.Unavailable = append(res.Unavailable, pr.Name)
		}
	}
	return res, nil
}
