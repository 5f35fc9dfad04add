// Package order creates, prices, settles and cancels orders. The server decides every amount: the
// caller's expected total is only compared, never charged.
package order

import (
	"errors"
	"time"

	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/money"
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
	// StatusNeedsReview: money arrived that the order cannot deliver (it was cancelled, expired,
	// held or already paid, or its line is gone). The payment is refunded where the gateway can,
	// else listed for the operator (streamcart payments review); the order is never provisioned.
	StatusNeedsReview Status = "needs_review"
	// StatusPartiallyRefunded and StatusRefunded: an operator gave back part or all of what the
	// order's invoice took (package refund); a full refund takes back what the order gave.
	StatusPartiallyRefunded Status = "partially_refunded"
	StatusRefunded          Status = "refunded"
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
	// ServiceOverdue is a line past its due date with its renewal unpaid, within the grace days.
	ServiceOverdue ServiceStatus = "Overdue"
	// ServiceExpired is a free trial past its end.
	ServiceExpired ServiceStatus = "Expired"
)

// Kind is what an order sells. It is stored with the order and picks its fulfilment (Fulfilment:
// a lookup, never a guess from other tables); every kind is placed by one path (a Placement:
// Create for a plan, Place for what another package prices).
type Kind string

const (
	// KindPlan is a plan from the catalog: new lines, provisioned on the panel.
	KindPlan Kind = "plan"
	// KindUpsell is extra connections on an active line (package upsell).
	KindUpsell Kind = "upsell"
	// KindReseller is a reseller credit plan (package reseller).
	KindReseller Kind = "reseller"
	// KindRenewal is the next billing period of an active service (package renewal).
	KindRenewal Kind = "renewal"
	// KindChange is the prorated difference of an operator's change of a line's plan, cycle,
	// connections or due date, charged now (package planchange).
	KindChange Kind = "change"
)

// Order is one purchase. Owner is the client; SessionID is the session that bought it, which
// decides what an email-only session may read.
type Order struct {
	ID             string
	Kind           Kind
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

	// Locale is the buyer's language when ordering (one of mail.Locales; "" when unknown): the
	// shop's mail about the order is written in it.
	Locale string

	// RenewWithCard is the buyer's consent to renew with the card paying this order: the
	// gateway saves it (a CardSaver) and renewals are charged to it off-session.
	RenewWithCard bool

	// Hold is why the fraud check held the order (stored with it when placed); nil otherwise.
	Hold *Hold
	// Where the buyer is, kept as evidence of the tax country with an order placed under a tax
	// block (all empty otherwise): the billing country taxed (the one they gave, else their
	// address's, else the seller's), their IP address's country ("" when unknown), and whether
	// they confirmed a billing country that differs from it. The tax itself is Quote.Tax.
	BillingCountry, IPCountry string
	CountryConfirmed          bool
	// Version counts the changes of what the buyer is shown of the order (status, fraud hold,
	// invoice, credit notes, the gateway's quote, the payment seen): 1 when placed, moved by the
	// database in the transaction of each change (migration 0028). Order streams number their
	// events with it.
	Version int64
}

// Hold is why the fraud check held an order: the checks that fired with their values, the
// address it came from, and the orders from that address in the 24 hours before it.
type Hold struct {
	Rules        []fraud.Fired
	IP           string
	OrdersFromIP int
}

// Invoice is what the buyer pays for an order.
type Invoice struct {
	ID            string
	OrderID       string
	ClientID      int64
	Amount        money.Money
	Status        InvoiceStatus
	Gateway       string
	PaymentURL    string
	Deadline      time.Time // zero when nothing is due
	TransactionID string
	PaidAt        time.Time
	// Number is the invoice's number, given when it is paid (Tx.NumberInvoice); "" until then.
	Number string
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
	// AutoRenew is false once the buyer cancelled auto-renew: no more renewal invoices, and the
	// service is Cancelled at its due date. Stored true for every service; it means something only
	// for a paid, recurring one.
	AutoRenew bool
	// SavedCard: a card saved with the buyer's consent at a paid order is kept for the service,
	// and its renewals are charged to it off-session.
	SavedCard bool
}

var (
	ErrNotFound            = errors.New("not found")
	ErrIdempotencyMismatch = errors.New("idempotency key reused with a different request")
	ErrNotPending          = errors.New("order is not pending")
	ErrAlreadySettled      = errors.New("invoice already settled")
	ErrUnknownGateway      = errors.New("unknown gateway")
	ErrBadReturnURL        = errors.New("return URL must be a path or a URL on this site")
)

// Payment is money a provider reports received for an invoice.
type Payment struct {
	Provider      string // the gateway module that took it; "" means the invoice's own
	TransactionID string // unique per payment: a delivery of the same one acts once
	// Ref is what the provider refunds the payment by (Stripe: the payment intent); "" when the
	// gateway finds it from TransactionID.
	Ref    string
	Amount money.Money
}

// Why a payment is under review: stable names, shown by the console, its API and the CLI.
const (
	ReasonCancelled   = "cancelled"    // the order was cancelled
	ReasonExpired     = "expired"      // the invoice's deadline passed
	ReasonHeld        = "held"         // the order is held by the fraud check
	ReasonFailed      = "failed"       // the payment had failed before
	ReasonAlreadyPaid = "already_paid" // the invoice is paid already (a second payment)
	ReasonInReview    = "in_review"    // the order is under review already
	ReasonLineGone    = "line_gone"    // the line it paid for is not active
	ReasonShort       = "short"        // less than the invoice's amount arrived
	ReasonOver        = "over"         // more than the invoice's amount arrived
	ReasonCurrency    = "currency"     // the money arrived in another currency
)

// The states of a payment to review.
const (
	ReviewOpen     = "review"   // the owner refunds or accepts it
	ReviewRefunded = "refunded" // given back (by the provider, or by hand with a reference)
	ReviewAccepted = "accepted" // taken as payment of its order
)

// Review is a payment to review: money that arrived but cannot settle its order. One whose
// order cannot deliver anything is refunded by a RefundJob where the gateway can; the others
// wait for the owner, who refunds or accepts them.
type Review struct {
	ID            string
	OrderID       string
	InvoiceID     string
	Provider      string
	TransactionID string
	PaymentRef    string
	Amount        money.Money // what arrived
	Expected      money.Money // what the order asked
	Reason        string
	State         string
	RefundID      string    // the provider's refund; "" until refunded
	Reference     string    // the transaction of a refund made by hand
	RefundedAt    time.Time // zero until refunded
	RefundError   string    // why the last refund attempt failed
	DecidedBy     string    // the operator who refunded or accepted it; "" for an automatic refund
	CreatedAt     time.Time
}

// Refunded reports whether the money went back to the buyer.
func (r Review) Refunded() bool { return !r.RefundedAt.IsZero() }

var (
	// ErrNeedsReview means a payment arrived for an order that cannot deliver it: the order is
	// under review and the payment is being refunded or listed for the operator.
	ErrNeedsReview = errors.New("payment needs review")
	// ErrWrongProvider means a provider reported a payment of an invoice another gateway issued.
	ErrWrongProvider = errors.New("invoice belongs to another payment provider")
)

// ReviewError is ErrNeedsReview with the reason of the review.
type ReviewError struct{ Reason string }

func (e *ReviewError) Error() string { return ErrNeedsReview.Error() + ": " + e.Reason }
func (e *ReviewError) Unwrap() error { return ErrNeedsReview }

// PriceChangedError answers an expected total that differs from the server's price.
type PriceChangedError struct{ Quote pricing.Quote }

func (e *PriceChangedError) Error() string {
	return "price changed"
}

// TaxEvidence is where o's buyer is, for an order that follows o on the same line (a renewal, an
// upsell, a plan change), which is taxed as o was: the billing country o was taxed in and the
// address's country kept with it. An order placed before the shop had a tax block kept no
// evidence; then its stored countries, else the country of the address it was placed from
// (locate; nil or "" when unknown) stand in, and with none known the caller's own evidence
// or the seller's country (pricing.TaxCountry) decides.
func (o Order) TaxEvidence(locate func(ip string) string) (billing, ip string, confirmed bool) {
	if t := o.Quote.Tax; t != nil {
		return t.Country, o.IPCountry, o.CountryConfirmed
	}
	billing, ip = o.BillingCountry, o.IPCountry
	if billing == "" && ip == "" && locate != nil && o.IP != "" {
		ip = locate(o.IP)
	}
	return billing, ip, o.CountryConfirmed
}
