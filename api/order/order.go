// Package order creates, prices, settles and cancels orders. The server decides every amount: the
// caller's expected total is only compared, never charged.
package order

import (
	"errors"
	"time"

	"github.com/streamcart/streamcart/api/pricing"
)

// Status is an order's place in its lifecycle.
type Status string

const (
	StatusPending      Status = "pending"
	StatusPaid         Status = "paid"
	StatusProvisioning Status = "provisioning"
	StatusActive       Status = "active"
	StatusFraud        Status = "fraud"
	StatusCancelled    Status = "cancelled"
	StatusFailed       Status = "failed"
)

// InvoiceStatus is the payment state of an invoice.
type InvoiceStatus string

const (
	InvoiceUnpaid    InvoiceStatus = "unpaid"
	InvoicePaid      InvoiceStatus = "paid"
	InvoiceFailed    InvoiceStatus = "failed"
	InvoiceCancelled InvoiceStatus = "cancelled"
)

// ServiceStatus follows WHMCS's product statuses, shown to buyers as a badge.
type ServiceStatus string

const (
	ServicePending    ServiceStatus = "Pending"
	ServiceActive     ServiceStatus = "Active"
	ServiceSuspended  ServiceStatus = "Suspended"
	ServiceCancelled  ServiceStatus = "Cancelled"
	ServiceTerminated ServiceStatus = "Terminated"
)

// Order is one purchase. Owner is the client; SessionID is the session that bought it, which
// decides what an email-only session may read.
type Order struct {
	ID             string
	ClientID       int64
	SessionID      string
	Email          string
	Quote          pricing.Quote
	Status         Status
	Fraud          bool
	IP             string
	Gateway        string
	AffiliateID    string
	ReturnURL      string
	PromoCode      string
	IdempotencyKey string
	RequestHash    string
	CreatedAt      time.Time
	UpdatedAt      time.Time
	Invoice        Invoice
	ServiceIDs     []string
}

// Invoice is what the buyer pays for an order.
type Invoice struct {
	ID            string
	OrderID       string
	ClientID      int64
	Amount        pricing.Money
	Status        InvoiceStatus
	Gateway       string
	PaymentURL    string
	Deadline      time.Time // zero when nothing is due
	TransactionID string
	PaidAt        time.Time
}

// Service is one IPTV line sold by an order.
type Service struct {
	ID             string
	OrderID        string
	ClientID       int64
	SessionID      string
	PID            int
	Name           string
	BillingCycle   string
	Status         ServiceStatus
	Trial          bool
	Username       string
	Password       string
	ServerHostname string
	MaxConnections int
	MACAddress     string
	ExpiresAt      time.Time // zero: never expires
	NextDueDate    time.Time // zero: nothing more to pay
	CreatedAt      time.Time
}

var (
	ErrNotFound            = errors.New("not found")
	ErrIdempotencyMismatch = errors.New("idempotency key reused with a different request")
	ErrNotPending          = errors.New("order is not pending")
	ErrAlreadySettled      = errors.New("invoice already settled")
	ErrExpired             = errors.New("invoice expired")
	ErrUnknownGateway      = errors.New("unknown gateway")
	ErrBadReturnURL        = errors.New("return URL must be a path or a URL on this site")
)

// PriceChangedError answers an expected total that differs from the server's price.
type PriceChangedError struct{ Quote pricing.Quote }

func (e *PriceChangedError) Error() string {
	return "price changed"
}
