package httpapi

import (
	"context"

	"github.com/streamcart/streamcart/api/authz"
	gen "github.com/streamcart/streamcart/gen/admin_settings"
)

type adminSettings struct{ admin }

// List answers every setting in force on this replica, masked (config.Set.InForce), to the owner.
func (s adminSettings) List(ctx context.Context, p *gen.ListPayload) (*gen.ListResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpReadSettings); err != nil {
		return nil, err
	}
	res := &gen.ListResult{Settings: []*gen.AdminSetting{}}
	if s.Settings == nil {
		return res, nil
	}
	for _, v := range s.Settings() {
		res.Settings = append(res.Settings, &gen.AdminSetting{Name: v.Name, Env: v.Env, Flag: v.Flag, Value: v.Value,
			Source: string(v.Source), Secret: v.Secret, Description: v.Usage})
	}
	return res, nil
}
