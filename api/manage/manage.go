// Package manage lets a proven session act on its client's services through the panel: restart,
// recreate, terminate, change the device MAC address. Every action is checked by the policies and
// written to the audit log.
package manage

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
)

var (
	// ErrInvalidMAC means the MAC address is not six hex pairs separated by ':' or '-'.
	ErrInvalidMAC = errors.New("manage: invalid MAC address")
	// ErrState means the service's status does not allow the action.
	ErrState = errors.New("manage: not allowed in this status")
)

// Store reads and writes services.
type Store interface {
	Service(ctx context.Context, id string) (order.Service, error)
	ClientServices(ctx context.Context, clientID int64) ([]order.Service, error)
	UpdateService(ctx context.Context, s order.Service) error
}

// Authorizer decides who may do what.
type Authorizer interface {
	Allowed(c authz.Claims, action string, r authz.Resource) bool
}

// View is a service as the billing system that owns it has it now, for display only (WHMCS
// mode: whmcsorder.Lines.View); the service as stored when it cannot say.
type View func(ctx context.Context, s order.Service) order.Service

// Services manages buyers' services.
type Services struct {
	store   Store
	lines   panel.Manager
	catalog func() *catalog.Catalog
	authz   Authorizer
	audit   *audit.Log
	view    View
}

// New returns the service manager; view (nil: the services as stored) is what a buyer is shown.
func New(store Store, lines panel.Manager, cat func() *catalog.Catalog, az Authorizer, log *audit.Log, view View) *Services {
	return &Services{store: store, lines: lines, catalog: cat, authz: az, audit: log, view: view}
}

// Shown is s as the buyer is shown it (View), after its ownership was checked.
func (m *Services) Shown(ctx context.Context, s order.Service) order.Service {
	if m.view == nil {
		return s
	}
	return m.view(ctx, s)
}

// Resource is the policy resource of a service.
func Resource(s order.Service) authz.Resource {
	return authz.Resource{Kind: authz.KindService, ID: s.ID, ClientID: s.ClientID, SessionID: s.SessionID}
}

// List returns the services claims may read, oldest first.
func (m *Services) List(ctx context.Context, claims authz.Claims) ([]order.Service, error) {
	all, err := m.store.ClientServices(ctx, claims.ClientID)
	if err != nil {
		return nil, fmt.Errorf("list services: %w", err)
	}
	out := []order.Service{}
	for _, s := range all {
		if m.authz.Allowed(claims, authz.ActionRead, Resource(s)) {
			out = append(out, s)
		}
	}
	return out, nil
}

// Managed reads a service claims may manage; a foreign one, or any one for an email-only
// session, is order.ErrNotFound like an unknown one.
func (m *Services) Managed(ctx context.Context, claims authz.Claims, id string) (order.Service, error) {
	s, err := m.store.Service(ctx, id)
	if err != nil {
		return order.Service{}, err
	}
	if !m.authz.Allowed(claims, authz.ActionManage, Resource(s)) {
		return order.Service{}, order.ErrNotFound
	}
	return s, nil
}

// Audit records an action on a service taken by another package (auto-renew) for claims.
func (m *Services) Audit(ctx context.Context, claims authz.Claims, action, id string, err error) {
	m.audit.Record(ctx, claims, action, id, "", err)
}

// act runs one audited action on a service in one of the allowed statuses.
func (m *Services) act(ctx context.Context, claims authz.Claims, id, action string, allowed []order.ServiceStatus,
	fn func(*order.Service) (detail string, err error)) (order.Service, error) {
	s, err := m.Managed(ctx, claims, id)
	if err != nil {
		return order.Service{}, err
	}
	ok := false
	for _, st := range allowed {
		ok = ok || s.Status == st
	}
	if !ok {
		return s, fmt.Errorf("%s %s (%s): %w", action, id, s.Status, ErrState)
	}
	detail, err := fn(&s)
	if err == nil {
		err = m.store.UpdateService(ctx, s)
	}
	m.audit.Record(ctx, claims, action, id, detail, err)
	if err != nil {
		return order.Service{}, fmt.Errorf("%s %s: %w", action, id, err)
	}
	return s, nil
}

// Restart drops the line's open connections.
func (m *Services) Restart(ctx context.Context, claims authz.Claims, id string) (order.Service, error) {
	return m.act(ctx, claims, id, "restart", []order.ServiceStatus{order.ServiceActive}, func(s *order.Service) (string, error) {
		return "", panel.Restart(ctx, m.lines, s.ID)
	})
}

// Recreate builds the line again with the service's credentials and limits.
func (m *Services) Recreate(ctx context.Context, claims authz.Claims, id string) (order.Service, error) {
	return m.act(ctx, claims, id, "recreate", []order.ServiceStatus{order.ServiceActive, order.ServiceSuspended}, func(s *order.Service) (string, error) {
		product, _ := m.catalog().Product(s.PID)
		_, err := m.lines.Recreate(ctx, panel.Line{
			Ref: s.ID, Username: s.Username, Password: s.Password, MaxConnections: s.MaxConnections,
			ExpiresAt: s.ExpiresAt, Trial: s.Trial, Bouquets: product.Bouquets, Enabled: true, MAC: s.MACAddress,
		})
		if err == nil {
			s.Status = order.ServiceActive
		}
		return "", err
	})
}

// Terminate deletes the line for good.
func (m *Services) Terminate(ctx context.Context, claims authz.Claims, id string) (order.Service, error) {
	return m.act(ctx, claims, id, "terminate", []order.ServiceStatus{order.ServiceActive, order.ServiceSuspended}, func(s *order.Service) (string, error) {
		err := m.lines.Delete(ctx, s.ID)
		if err == nil {
			s.Status = order.ServiceTerminated
		}
		return "", err
	})
}

// SetMAC binds the line to a device; raw must pass NormalizeMAC.
func (m *Services) SetMAC(ctx context.Context, claims authz.Claims, id, raw string) (order.Service, error) {
	mac, err := NormalizeMAC(raw)
	if err != nil {
		// Ownership first: a foreign id answers not found whatever the body says.
		if _, ferr := m.Managed(ctx, claims, id); ferr != nil {
			return order.Service{}, ferr
		}
		return order.Service{}, err
	}
	return m.act(ctx, claims, id, "mac", []order.ServiceStatus{order.ServiceActive, order.ServiceSuspended}, func(s *order.Service) (string, error) {
		err := m.lines.SetMAC(ctx, s.ID, mac)
		if err == nil {
			s.MACAddress = mac
		}
		return mac, err
	})
}

var macRule = regexp.MustCompile(`^[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){4}$`)

// NormalizeMAC checks a MAC address (six hex pairs separated by ':' or '-', one separator
// throughout) and returns it upper-case with ':'.
func NormalizeMAC(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if !macRule.MatchString(raw) {
		return "", ErrInvalidMAC
	}
	sep := raw[2:3]
	if strings.Count(raw, sep) != 5 {
		return "", ErrInvalidMAC
	}
	return strings.ToUpper(strings.ReplaceAll(raw, "-", ":")), nil
}
