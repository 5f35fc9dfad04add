package whmcsorder

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/whmcs"
)

// LinesStore maps one of our services to the WHMCS service it stands for.
type LinesStore interface {
	// ServiceRef is the WHMCS client and service of our service id; order.ErrNotFound when it
	// is not a WHMCS-placed one.
	ServiceRef(ctx context.Context, serviceID string) (clientRef, serviceRef int, err error)
}

// LinesAPI is what the after-sale side asks of WHMCS (whmcs.Client).
type LinesAPI interface {
	GetClientService(ctx context.Context, clientID, serviceID int) (whmcs.Service, error)
	SetServiceFields(ctx context.Context, serviceID int, fields map[int]string) error
	Module(ctx context.Context, action string, serviceID int) error
	ModuleSuspend(ctx context.Context, serviceID int, reason string) error
	ModuleCustom(ctx context.Context, serviceID int, function string) error
}

// Lines is the after sale of a WHMCS-made line (a panel.Manager for api/manage, and the source of
// the services view): each call reads or writes the WHMCS service our svc_ id maps to, for the
// session's client only (the mapping is ours, never an id from the browser). WHMCS's module
// acts on the panel: the MAC address is the service's custom field (UpdateClientProduct),
// restart the module's custom function, terminate ModuleTerminate. What WHMCS's cron owns
// (expiry, connections, suspension) is refused with ErrUnsupported.
type Lines struct {
	api      LinesAPI
	store    LinesStore
	macField string // the custom field's name (STREAMCART_WHMCS_MAC_FIELD)
	restart  string // the module's custom function that restarts a line
	extra    int    // the extra connections' config option id
	cache    *ServiceCache
	log      *slog.Logger
}

// ErrUnsupported answers what a WHMCS-made line does not do from Streamcart (its cron or
// module owns it).
var ErrUnsupported = fmt.Errorf("whmcs line: %w", panel.ErrUnavailable)

var _ panel.Manager = (*Lines)(nil)

// NewLines returns the lines; macField names the MAC custom field, restart the module's restart
// function, extra the extra connections' config option id, cache the services view's reads (nil:
// WHMCS is read for each service shown); each write forgets its client's there.
func NewLines(api LinesAPI, store LinesStore, macField, restart string, extra int, cache *ServiceCache, log *slog.Logger) *Lines {
	return &Lines{api: api, store: store, macField: macField, restart: restart, extra: extra, cache: cache, log: log}
}

// lineErr maps a WHMCS failure to the panel's errors (the buyer sees unavailable or conflict,
// never WHMCS's words; the log has them). Unavailable is also order.ErrUpstreamUnavailable: the
// answer names the billing system (WHMCS) that failed, not the panel.
func (l *Lines) lineErr(ref string, err error) error {
	if err == nil {
		return nil
	}
	l.log.Warn("WHMCS service call failed", "service", ref, "action", action(err), "err", err)
	if errors.Is(err, whmcs.ErrNotFound) {
		return fmt.Errorf("whmcs service %s: %w", ref, panel.ErrNotFound)
	}
	return fmt.Errorf("whmcs service %s: %w: %w", ref, panel.ErrUnavailable, order.ErrUpstreamUnavailable)
}

// service reads the WHMCS service of our service ref fresh, for an action on it; the services
// view's read of its client is forgotten, since the action is about to change it.
func (l *Lines) service(ctx context.Context, ref string) (int, whmcs.Service, error) {
	client, id, err := l.store.ServiceRef(ctx, ref)
	if errors.Is(err, order.ErrNotFound) {
		return 0, whmcs.Service{}, fmt.Errorf("whmcs service %s: not placed in WHMCS: %w", ref, panel.ErrNotFound)
	}
	if err != nil {
		return 0, whmcs.Service{}, err
	}
	l.cache.Forget(client)
	s, err := l.api.GetClientService(ctx, client, id)
	return id, s, l.lineErr(ref, err)
}

// SetMAC writes the MAC address in the service's MAC custom field (UpdateClientProduct), where
// WHMCS's module reads it.
func (l *Lines) SetMAC(ctx context.Context, ref, mac string) error {
	id, s, err := l.service(ctx, ref)
	if err != nil {
		return err
	}
	for _, f := range s.CustomFields {
		if strings.EqualFold(strings.TrimSpace(f.Name), l.macField) {
			return l.lineErr(ref, l.api.SetServiceFields(ctx, id, map[int]string{int(f.ID): mac}))
		}
	}
	l.log.Warn("WHMCS product has no MAC custom field", "service", ref, "field", l.macField)
	return fmt.Errorf("whmcs service %s: no custom field %q: %w", ref, l.macField, panel.ErrNotFound)
}

// Restart runs the module's restart function (ModuleCustom): panel.Restart's Restarter.
func (l *Lines) Restart(ctx context.Context, ref string) error {
	id, _, err := l.service(ctx, ref)
	if err != nil {
		return err
	}
	return l.lineErr(ref, l.api.ModuleCustom(ctx, id, l.restart))
}

// Delete ends the line: ModuleTerminate (the module deletes it); one WHMCS shows ended already
// is left.
func (l *Lines) Delete(ctx context.Context, ref string) error {
	id, s, err := l.service(ctx, ref)
	if err != nil || s.Status == "Terminated" || s.Status == "Cancelled" {
		return err
	}
	return l.lineErr(ref, l.api.Module(ctx, "ModuleTerminate", id))
}

// Extend is WHMCS's cron's (renewals).
func (l *Lines) Extend(context.Context, string, time.Time) error { return ErrUnsupported }

// SetMaxConnections is WHMCS's (an upgrade's ChangePackage).
func (l *Lines) SetMaxConnections(context.Context, string, int) error { return ErrUnsupported }

// SetEnabled is WHMCS's (suspension by its cron).
func (l *Lines) SetEnabled(context.Context, string, bool) error { return ErrUnsupported }

// SellerLines is the seller console's hold on WHMCS-made lines (console.Lines): suspend and
// unsuspend are WHMCS's module commands, as an admin's in WHMCS (the buyer's Lines refuses them),
// terminate is ModuleTerminate; extend stays WHMCS's cron's (ErrUnsupported).
type SellerLines struct{ *Lines }

// SuspendReason is the reason WHMCS shows on a line the seller suspended from the console.
const SuspendReason = "Suspended from the Streamcart console"

// SetEnabled unsuspends (ModuleUnsuspend) or suspends (ModuleSuspend, SuspendReason) the WHMCS
// service; one WHMCS shows in that state already is left.
func (l SellerLines) SetEnabled(ctx context.Context, ref string, enabled bool) error {
	id, s, err := l.service(ctx, ref)
	if err != nil {
		return err
	}
	switch {
	case enabled && s.Status == "Active", !enabled && s.Status == "Suspended":
		return nil
	case enabled:
		return l.lineErr(ref, l.api.Module(ctx, "ModuleUnsuspend", id))
	}
	return l.lineErr(ref, l.api.ModuleSuspend(ctx, id, SuspendReason))
}

// Recreate is not a WHMCS module function.
func (l *Lines) Recreate(context.Context, panel.Line) (panel.Line, error) {
	return panel.Line{}, ErrUnsupported
}

// statuses maps WHMCS's service statuses to ours.
var statuses = map[string]order.ServiceStatus{
	"Pending": order.ServicePending, "Active": order.ServiceActive, "Suspended": order.ServiceSuspended,
	"Terminated": order.ServiceTerminated, "Cancelled": order.ServiceCancelled, "Fraud": order.ServiceCancelled,
	"Completed": order.ServiceExpired,
}

// dueReaders is how many clients' services NextDueDates reads at once.
const dueReaders = 4

// NextDueDates is WHMCS's next due date of each WHMCS-placed service of services, by our service
// id (console.DueDates: the seller console's list of lines): one GetClientsProducts per distinct
// client through the services cache (kept a few seconds, shared with the services view and with
// the reads running meanwhile), a few clients at once, never one call per line. A service not
// placed in WHMCS, or not among its client's first 100, has none. unavailable is true when WHMCS
// could not be asked for some client (logged once per client): those rows keep their stored
// date, and once WHMCS is seen unreachable the page's other clients are not asked, so an outage
// costs the list one failed call, not one per client.
func (l *Lines) NextDueDates(ctx context.Context, services []order.Service) (dates map[string]time.Time, unavailable bool) {
	dates = map[string]time.Time{}
	type ref struct {
		ours string
		id   int
	}
	byClient := map[int][]ref{}
	var clients []int
	for _, s := range services {
		client, id, err := l.store.ServiceRef(ctx, s.ID)
		if errors.Is(err, order.ErrNotFound) {
			continue // not a WHMCS line: its stored date
		}
		if err != nil {
			l.log.Warn("WHMCS service unmapped: shown as stored", "service", s.ID, "err", err)
			continue
		}
		if _, seen := byClient[client]; !seen {
			clients = append(clients, client)
		}
		byClient[client] = append(byClient[client], ref{s.ID, id})
	}
	if len(clients) == 0 || l.cache == nil {
		return dates, false
	}
	var (
		mu   sync.Mutex
		down atomic.Bool
		wg   sync.WaitGroup
		next = make(chan int)
	)
	for range min(dueReaders, len(clients)) {
		wg.Go(func() {
			for client := range next {
				if down.Load() {
					mu.Lock()
					unavailable = true
					mu.Unlock()
					continue
				}
				list, err := l.cache.Services(ctx, client)
				mu.Lock()
				if err != nil {
					unavailable = true
					if errors.Is(err, whmcs.ErrUnavailable) || ctx.Err() != nil {
						down.Store(true)
					}
					l.log.Warn("WHMCS services unread: the console lists their lines without WHMCS's next due date", "action", action(err), "err", err)
				}
				for _, ws := range list {
					for _, r := range byClient[client] {
						if int(ws.ID) == r.id && !ws.NextDueDate.IsZero() {
							dates[r.ours] = ws.NextDueDate.Time
						}
					}
				}
				mu.Unlock()
			}
		})
	}
	for _, c := range clients {
		next <- c
	}
	close(next)
	wg.Wait()
	return dates, unavailable
}

// View is s as WHMCS has it now (GetClientsProducts): its status, next due date, credentials,
// connections (1 + the extra connections option) and MAC address over what we stored. Only for
// display: none of it is stored, WHMCS's cron owns the dates (our renewal sweep must not see
// them). A service not placed in WHMCS, or WHMCS unreachable (logged), is s as stored. The
// client's services are read once for all of them (the cache, a few seconds).
func (l *Lines) View(ctx context.Context, s order.Service) order.Service {
	client, id, err := l.store.ServiceRef(ctx, s.ID)
	if err != nil {
		return s
	}
	var ws whmcs.Service
	found := false
	if l.cache != nil {
		ws, found, err = l.cache.Service(ctx, client, id)
	}
	if err == nil && !found {
		ws, err = l.api.GetClientService(ctx, client, id)
	}
	if err != nil {
		l.log.Warn("WHMCS service unread: shown as stored", "service", s.ID, "action", action(err), "err", err)
		return s
	}
	if st, ok := statuses[ws.Status]; ok {
		s.Status = st
	}
	s.Username, s.Password, s.ServerHostname = ws.Username, ws.Password, ws.ServerHostname
	s.NextDueDate = ws.NextDueDate.Time
	for _, o := range ws.ConfigOptions {
		if int(o.ID) == l.extra {
			var n int
			fmt.Sscan(o.Value, &n)
			s.MaxConnections = 1 + n
		}
	}
	for _, f := range ws.CustomFields {
		if strings.EqualFold(strings.TrimSpace(f.Name), l.macField) {
			s.MACAddress = f.Value
		}
	}
	return s
}
