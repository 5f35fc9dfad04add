package whmcsorder

import (
	"context"
	"time"

	"github.com/streamcart/streamcart/api/whmcs"
)

// ServicesReader lists a client's WHMCS services (whmcs.Client).
type ServicesReader interface {
	GetClientServices(ctx context.Context, clientID int, domain string) ([]whmcs.Service, error)
}

// ServiceCache keeps each client's WHMCS services a few seconds (whmcs.ReadFor) for the services
// view: one GetClientsProducts per client, however many services it has and however many views
// ask at once. What Streamcart changes in WHMCS forgets the client's (Forget); what WHMCS changes
// by itself (its cron) shows after at most whmcs.ReadFor. Never for a decision: the jobs and
// actions read WHMCS fresh.
type ServiceCache struct {
	api  ServicesReader
	memo *whmcs.Memo[int, []whmcs.Service]
}

// NewServiceCache returns the cache; now is the clock its time runs on (nil: real time).
func NewServiceCache(api ServicesReader, now func() time.Time) *ServiceCache {
	return &ServiceCache{api: api, memo: whmcs.NewMemo[int, []whmcs.Service](whmcs.ReadFor, now)}
}

// Service is WHMCS service id of client as last read for the view; found false when the
// client's list (its first 100) lacks it.
func (c *ServiceCache) Service(ctx context.Context, client, id int) (whmcs.Service, bool, error) {
	list, err := c.Services(ctx, client)
	if err != nil {
		return whmcs.Service{}, false, err
	}
	for _, s := range list {
		if int(s.ID) == id {
			return s, true, nil
		}
	}
	return whmcs.Service{}, false, nil
}

// Services is client's WHMCS services (its first 100) as last read for the view: one
// GetClientsProducts per client however many ask (kept whmcs.ReadFor; callers asking while it
// runs share it).
func (c *ServiceCache) Services(ctx context.Context, client int) ([]whmcs.Service, error) {
	return c.memo.Do(ctx, client, func(ctx context.Context) ([]whmcs.Service, error) {
		return c.api.GetClientServices(ctx, client, "")
	})
}

// Forget drops client's services read (a write through Streamcart changed one); nil-safe.
func (c *ServiceCache) Forget(client int) {
	if c != nil {
		c.memo.Forget(client)
	}
}
