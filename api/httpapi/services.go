package httpapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/lineqr"
	"github.com/streamcart/streamcart/api/manage"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/renewal"
	genservices "github.com/streamcart/streamcart/gen/services"
)

type servicesService struct {
	authenticator
	catalog func() *catalog.Catalog
	orders  *order.Orders
	panel   panel.Panel
	manage  *manage.Services
	// renewals bills the next periods; orderResults shows the renewal orders as POST /orders does.
	renewals     *renewal.Renewals
	orderResults *orderService
	// upstreamRenew, when set, renews through the billing system that owns the services (WHMCS:
	// its open renewal invoice paid here) instead of renewals.
	upstreamRenew UpstreamRenewer
}

// UpstreamRenewer answers the order paying a service's renewal the billing system invoiced.
type UpstreamRenewer interface {
	Renew(ctx context.Context, claims authz.Claims, svc order.Service, req renewal.Request) (order.Order, error)
	// Open is the order paying the service's open renewal invoice, when one was made.
	Open(ctx context.Context, svc order.Service) (order.Order, bool, error)
}

// NewServices returns the service (IPTV line) service.
func NewServices(cat func() *catalog.Catalog, accounts *account.Service, orders *order.Orders, p panel.Panel, m *manage.Services,
	r *renewal.Renewals, quotes payment.Quotes, up UpstreamRenewer) genservices.Service {
	return &servicesService{authenticator: authenticator{accounts: accounts, unauthorized: unauthorizedAs(genservices.MakeUnauthorized)},
		catalog: cat, orders: orders, panel: p, manage: m, renewals: r, orderResults: &orderService{orders: orders, quotes: quotes},
		upstreamRenew: up}
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
	return s.result(ctx, svc, p.Locale)
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
// kept for it and it still renews (a line with a due date, auto-renew not cancelled, not
// terminated or cancelled).
func renewsWithCard(svc order.Service) bool {
	switch svc.Status {
	case order.ServiceActive, order.ServiceOverdue, order.ServiceSuspended:
		return svc.SavedCard && svc.AutoRenew && !svc.Trial && !svc.NextDueDate.IsZero()
	}
	return false
}

// result shows a service to a session allowed to read it, with its renewal: whether it renews,
// its open renewal invoice and what the next period costs.
func (s *servicesService) result(ctx context.Context, svc order.Service, loc *string) (*genservices.ServiceResult, error) {
	svc = s.manage.Shown(ctx, svc)
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
	if working(svc) {
		r.PlaylistURL = playlistURL(svc)
	}
	if err := s.renewalOf(ctx, r, svc); err != nil {
		return nil, err
	}
	return r, nil
}

// renewalOf fills in r's renewal fields.
func (s *servicesService) renewalOf(ctx context.Context, r *genservices.ServiceResult, svc order.Service) error {
	renewing := renewal.Recurring(svc) && (svc.Status == order.ServiceActive || svc.Status == order.ServiceOverdue ||
		svc.Status == order.ServiceSuspended)
	r.AutoRenew = renewing && svc.AutoRenew
	if !renewing && !svc.Trial {
		return nil
	}
	var o order.Order
	var open bool
	var err error
	if s.upstreamRenew != nil {
		o, open, err = s.upstreamRenew.Open(ctx, svc)
	} else {
		_, o, open, err = s.renewals.Open(ctx, svc.ID)
	}
	if err != nil {
		return fmt.Errorf("service %s: %w", svc.ID, err)
	}
	if open {
		r.RenewalInvoiceID, r.RenewalOrderID = &o.Invoice.ID, &o.ID
		// A saved card that did not pay it: the buyer is told so, and to pay by the link.
		if s.upstreamRenew == nil && r.RenewsWithCard {
			failed, err := s.renewals.FailedCharge(ctx, o.ID)
			if err != nil {
				return fmt.Errorf("service %s: %w", svc.ID, err)
			}
			if failed != "" {
				r.RenewalCardCharge = &failed
			}
		}
	}
	if !renewing {
		return nil
	}
	amount, ok, err := s.renewals.RecurringAmount(ctx, svc)
	if err != nil {
		return fmt.Errorf("service %s: %w", svc.ID, err)
	}
	if ok {
		r.RecurringAmount = &genservices.Money{Amount: amount.Amount, Currency: amount.Currency}
	}
	return nil
}

// playlistURL is the line's m3u_plus playlist on the panel; empty without a server.
func playlistURL(svc order.Service) string {
	if svc.ServerHostname == "" {
		return ""
	}
	return "http://" + svc.ServerHostname + "/get.php?username=" + svc.Username + "&password=" + svc.Password + "&type=m3u_plus&output=ts"
}

// Qr draws a QR code of the line's Xtream codes or of its playlist URL, under the playlist's rules.
func (s *servicesService) Qr(ctx context.Context, p *genservices.QrPayload) (*genservices.QrResult, io.ReadCloser, error) {
	svc, err := s.service(ctx, p.ServiceID)
	if err != nil {
		return nil, nil, err
	}
	if !working(svc) || svc.ServerHostname == "" {
		return nil, nil, genservices.MakeNotFound(errors.New("This service is not active yet."))
	}
	text := playlistURL(svc)
	if p.Kind == "xtream" {
		text = lineqr.Xtream{Server: "http://" + svc.ServerHostname, Username: svc.Username, Password: svc.Password}.Text()
	}
	svg, err := lineqr.SVG(text)
	if err != nil {
		return nil, nil, fmt.Errorf("service %s: qr: %w", svc.ID, err)
	}
	return &genservices.QrResult{ContentType: "image/svg+xml", CacheControl: "private, no-store"},
		io.NopCloser(bytes.NewReader(svg)), nil
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
