package httpapi

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/console"
	gen "github.com/streamcart/streamcart/gen/admin_customers"
)

type adminCustomers struct{ admin }

func adminCustomer(c console.Customer) *gen.AdminCustomer {
	return &gen.AdminCustomer{ID: c.PublicID, Email: c.Email, CreatedAt: rfc3339(c.CreatedAt), Orders: c.Orders, ActiveLines: c.ActiveLines}
}

func customerError(err error) error {
	if errors.Is(err, console.ErrNotFound) {
		return gen.MakeNotFound(errors.New(msgNoCustomer))
	}
	return err
}

func (s adminCustomers) List(ctx context.Context, p *gen.ListPayload) (*gen.ListResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpRead); err != nil {
		return nil, err
	}
	cs, err := s.Actions.Customers(ctx, deref(p.Q), p.Limit)
	if err != nil {
		return nil, err
	}
	res := &gen.ListResult{Customers: []*gen.AdminCustomer{}}
	for _, c := range cs {
		res.Customers = append(res.Customers, adminCustomer(c))
	}
	return res, nil
}

func (s adminCustomers) Get(ctx context.Context, p *gen.GetPayload) (*gen.GetResult, error) {
	pr, err := s.allow(ctx, p.Session, authz.OpRead)
	if err != nil {
		return nil, err
	}
	d, err := s.Actions.Customer(ctx, p.ID)
	if err != nil {
		return nil, customerError(err)
	}
	creds := s.Authz.OperatorAllowed(string(pr.Role), authz.OpReadCredentials)
	res := &gen.GetResult{Customer: adminCustomer(d.Customer), Orders: []*gen.AdminOrder{}, Services: []*gen.AdminLine{}, Sessions: []*gen.AdminCustomerSession{}}
	for _, o := range d.Orders {
		res.Orders = append(res.Orders, &gen.AdminOrder{ID: o.ID, Kind: o.Kind, Status: o.Status, Email: o.Email, CustomerID: o.CustomerID,
			Total: &gen.Money{Amount: o.Total.Amount, Currency: o.Total.Currency}, Gateway: o.Gateway, InvoiceID: o.InvoiceID,
			InvoiceStatus: o.InvoiceStatus, PromoCode: o.PromoCode, CreatedAt: rfc3339(o.CreatedAt), PaidAt: rfc3339(o.PaidAt),
			Product: o.Product, Refunded: &gen.Money{Amount: o.Refunded, Currency: o.Total.Currency}, Net: &gen.Money{Amount: o.Net().Amount, Currency: o.Total.Currency}})
	}
	for _, v := range d.Services {
		l := &gen.AdminLine{ServiceID: v.ID, OrderID: v.OrderID, Pid: v.PID, Name: v.Name, Status: string(v.Status),
			Username: v.Username, Password: v.Password, ExpiresAt: rfc3339(v.ExpiresAt)}
		if !v.NextDueDate.IsZero() {
			l.NextDueDate = v.NextDueDate.UTC().Format(time.DateOnly)
		}
		if !creds {
			l.Username, l.Password = masked, masked
		}
		res.Services = append(res.Services, l)
	}
	for _, x := range d.Sessions {
		// A prefix names the session; the whole id stays out of the console.
		id := x.ID
		if len(id) > 8 {
			id = id[:8]
		}
		res.Sessions = append(res.Sessions, &gen.AdminCustomerSession{ID: id, Scope: x.Scope, CreatedAt: rfc3339(x.CreatedAt), ExpiresAt: rfc3339(x.ExpiresAt)})
	}
	return res, nil
}

func (s adminCustomers) Signout(ctx context.Context, p *gen.SignoutPayload) (*gen.SignoutResult, error) {
	pr, err := s.allow(ctx, p.Session, authz.OpSignOutCustomer)
	if err != nil {
		return nil, err
	}
	_, n, err := s.Actions.SignOut(ctx, p.ID)
	s.Audit.RecordOperator(ctx, pr.Email, "customer-signout", p.ID, strconv.Itoa(n)+" session(s)", err)
	if err != nil {
		return nil, customerError(err)
	}
	return &gen.SignoutResult{SessionsEnded: n}, nil
}

func (s adminCustomers) SigninLink(ctx context.Context, p *gen.SigninLinkPayload) (*gen.SigninLinkResult, error) {
	pr, err := s.allow(ctx, p.Session, authz.OpResendMail)
	if err != nil {
		return nil, err
	}
	c, err := s.Actions.SigninLink(ctx, p.ID)
	s.Audit.RecordOperator(ctx, pr.Email, "customer-signin-link", p.ID, c.Email, err)
	if err != nil {
		return nil, customerError(err)
	}
	return &gen.SigninLinkResult{SentTo: c.Email}, nil
}
