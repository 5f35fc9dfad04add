package httpapi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/manage"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	genservices "github.com/streamcart/streamcart/gen/services"
)

type servicesService struct {
	authenticator
	catalog func() *catalog.Catalog
	orders  *order.Orders
	panel   panel.Panel
	manage  *manage.Services
}

// NewServices returns the service (IPTV line) service.
func NewServices(cat func() *catalog.Catalog, accounts *account.Service, orders *order.Orders, p panel.Panel, m *manage.Services) genservices.Service {
	return &servicesService{authenticator: authenticator{accounts: accounts, unauthorized: unauthorizedAs(genservices.MakeUnauthorized)},
		catalog: cat, orders: orders, panel: p, manage: m}
}

func (s *servicesService) service(ctx context.Context, id string) (order.Service, error) {
	svc, err := s.orders.GetService(ctx, claimsFrom(ctx), id)
	if errors.Is(err, order.ErrNotFound) {
		return order.Service{}, genservices.MakeNotFound(errors.New("Service not found."))
	}
	return svc, err
}

// Get reads a service with its credentials.
func (s *servicesService) Get(ctx context.Context, p *genservices.GetPayload) (*genservices.ServiceResult, error) {
	svc, err := s.service(ctx, p.ServiceID)
	if err != nil {
		return nil, err
	}
	return s.result(svc, p.Locale), nil
}

// serviceName is a service's name in loc: the stored name is the plan's at purchase, in the
// catalog's language; a translation of the plan's name replaces it.
func serviceName(cat *catalog.Catalog, pid int, stored string, loc *string) string {
	if p, ok := cat.Product(pid); ok && locale(loc) != "" {
		if tr := p.Localized(locale(loc)).Name; tr != p.Name {
			return tr
		}
	}
	return stored
}

// working reports whether the service's line plays: an active one, and an overdue one during its
// grace days (the line is disabled only when it is suspended).
func working(svc order.Service) bool {
	return svc.Status == order.ServiceActive || svc.Status == order.ServiceOverdue
}

// renewsWithCard reports whether the service's renewals are charged to a saved card: a card was
// kept for it and it still renews (a line with a due date, not terminated or cancelled).
func renewsWithCard(svc order.Service) bool {
	switch svc.Status {
	case order.ServiceActive, order.ServiceOverdue, order.ServiceSuspended:
		return svc.SavedCard && !svc.Trial && !svc.NextDueDate.IsZero()
	}
	return false
}

// result shows a service to a session allowed to read it.
func (s *servicesService) result(svc order.Service, loc *string) *genservices.ServiceResult {
	r := &genservices.ServiceResult{
		ServiceID: svc.ID, OrderID: svc.OrderID, Pid: svc.PID, Name: serviceName(s.catalog(), svc.PID, svc.Name, loc), Status: string(svc.Status),
		Username: svc.Username, Password: svc.Password, ServerHostname: svc.ServerHostname,
		MaxConnections: svc.MaxConnections, MacAddress: svc.MACAddress, BillingCycle: svc.BillingCycle, Trial: svc.Trial,
		RenewsWithCard: renewsWithCard(svc),
	}
	if !working(svc) {
		// Credentials are stored before the panel confirms them: show them only once they work.
		r.Username, r.Password = "", ""
	}
	if !svc.NextDueDate.IsZero() {
		r.NextDueDate = svc.NextDueDate.Format(time.DateOnly)
	}
	if !svc.ExpiresAt.IsZero() {
		r.ExpiresAt = svc.ExpiresAt.Format(time.RFC3339)
	}
	if working(svc) && svc.ServerHostname != "" {
		r.PlaylistURL = "http://" + svc.ServerHostname + "/get.php?username=" + svc.Username + "&password=" + svc.Password + "&type=m3u_plus&output=ts"
	}
	return r
}

// Playlist returns the service's m3u_plus playlist.
func (s *servicesService) Playlist(ctx context.Context, p *genservices.PlaylistPayload) (*genservices.PlaylistResult, io.ReadCloser, error) {
	svc, err := s.service(ctx, p.ServiceID)
	if err != nil {
		return nil, nil, err
	}
	if !working(svc) {
		return nil, nil, genservices.MakeNotFound(errors.New("This service is not active yet."))
	}
	body, err := s.panel.Playlist(ctx, panel.Line{Ref: svc.ID, Username: svc.Username, Password: svc.Password, MaxConnections: svc.MaxConnections})
	if err != nil {
		return nil, nil, err
	}
	return &genservices.PlaylistResult{
		ContentType:        "audio/x-mpegurl; charset=utf-8",
		ContentDisposition: `attachment; filename="` + svc.Username + `.m3u"`,
	}, io.NopCloser(bytes.NewReader(body)), nil
}
