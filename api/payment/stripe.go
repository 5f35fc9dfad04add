package payment

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
)

// StripeTolerance is how far a signed Stripe webhook's timestamp may be from the shop's real
// time, in the past (a replay) or in the future (a forged or skewed clock).
const StripeTolerance = 300 * time.Second

// Refs records what a provider calls our invoices (store.PutRef / Ref).
type Refs interface {
	PutRef(ctx context.Context, scope, key, ref string) error
	Ref(ctx context.Context, scope, key string) (string, error)
}

// StripeConfig configures card payments through Stripe Checkout.
type StripeConfig struct {
	SecretKey     string // sk_live_… / sk_test_…
	WebhookSecret string // whsec_…
	APIURL        string // empty: Stripe's; stripe-mock in tests
	PublicURL     string // the shop's public base URL: success and cancel URLs are built on it
	HTTPClient    *http.Client
	Log           *slog.Logger // what could not be tidied up (a replaced page left open); nil: discarded
}

// Stripe is the card gateway through Stripe Checkout Sessions.
type Stripe struct {
	cfg       StripeConfig
	sc        *stripe.Client
	refs      Refs
	customers Customers // nil: every card-saving session creates its customer
	now       func() time.Time
	log       *slog.Logger
}

var (
	_ order.Gateway   = (*Stripe)(nil)
	_ order.Refunder  = (*Stripe)(nil)
	_ order.Expirer   = (*Stripe)(nil)
	_ Provider        = (*Stripe)(nil)
	_ Inquirer        = (*Stripe)(nil)
	_ Matcher         = (*Stripe)(nil)
	_ order.CardSaver = (*Stripe)(nil)
	_ CardReader      = (*Stripe)(nil)
)

// NewStripe returns the Stripe gateway; refs keeps each invoice's Checkout Session id. When refs
// also knows the clients' Stripe customers (Customers), a returning buyer who saves a card again
// saves it to the same customer.
func NewStripe(cfg StripeConfig, refs Refs) *Stripe {
	bc := &stripe.BackendConfig{
		HTTPClient:    cfg.HTTPClient,
		LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelNull}, // errors are ours to log, without secrets
	}
	if cfg.HTTPClient == nil {
		bc.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	if cfg.APIURL != "" {
		bc.URL = stripe.String(strings.TrimRight(cfg.APIURL, "/"))
	}
	sc := stripe.NewClient(cfg.SecretKey, stripe.WithBackends(stripe.NewBackendsWithConfig(bc)))
	customers, _ := refs.(Customers)
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Stripe{cfg: cfg, sc: sc, refs: refs, customers: customers, now: time.Now, log: log}
}

// SavesCards: a Checkout Session can save the card for off-session renewals.
func (*Stripe) SavesCards() bool { return true }

// Module names the gateway.
func (*Stripe) Module() string { return "stripe" }

// Checkout creates a Checkout Session for the invoice and returns its hosted page. The
// idempotency key makes a retried call return the same session. A session made for the invoice
// before (a renewal's own page, which its pay link replaces with one returning to the pay page)
// is expired once the new one stands, so that only one page can take the payment.
func (s *Stripe) Checkout(ctx context.Context, o order.Order) (string, error) {
	back := absURL(s.cfg.PublicURL, o.PaymentReturnURL())
	prev, err := s.refs.Ref(ctx, s.Module(), o.Invoice.ID)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return "", fmt.Errorf("stripe checkout %s: %w", o.Invoice.ID, err)
	}
	unit, err := toStripe(o.Invoice.Amount)
	if err != nil {
		return "", fmt.Errorf("stripe checkout %s: %w", o.Invoice.ID, err)
	}
	label := "Order " + o.ID
	if len(o.Quote.Lines) > 0 {
		label = o.Quote.Lines[0].Label
	}
	p := &stripe.CheckoutSessionCreateParams{
		Mode:              stripe.String(string(stripe.CheckoutSessionModePayment)),
		ClientReferenceID: stripe.String(o.Invoice.ID),
		SuccessURL:        stripe.String(back),
		CancelURL:         stripe.String(back),
		CustomerEmail:     stripe.String(o.Email),
		Metadata:          map[string]string{"invoice_id": o.Invoice.ID, "order_id": o.ID},
		LineItems: []*stripe.CheckoutSessionCreateLineItemParams{{
			Quantity: stripe.Int64(1),
			PriceData: &stripe.CheckoutSessionCreateLineItemPriceDataParams{
				Currency:    stripe.String(strings.ToLower(o.Invoice.Amount.Currency)),
				UnitAmount:  stripe.Int64(unit),
				ProductData: &stripe.CheckoutSessionCreateLineItemPriceDataProductDataParams{Name: stripe.String(label)},
			},
		}},
		PaymentIntentData: &stripe.CheckoutSessionCreatePaymentIntentDataParams{
			Metadata: map[string]string{"invoice_id": o.Invoice.ID, "order_id": o.ID},
		},
	}
	if o.RenewWithCard {
		if err := s.saveCard(ctx, o, p); err != nil {
			return "", fmt.Errorf("stripe checkout %s: %w", o.Invoice.ID, err)
		}
	}
	// Stripe lets a session live 30 minutes to 24 hours: end it with our deadline when it can.
	if left := o.Invoice.Deadline.Sub(s.now()); left >= 31*time.Minute && left <= 24*time.Hour {
		p.ExpiresAt = stripe.Int64(o.Invoice.Deadline.Unix())
	}
	p.SetIdempotencyKey(checkoutKey(o.Invoice.ID, back))
	sess, err := s.sc.V1CheckoutSessions.Create(ctx, p)
	if err != nil {
		return "", fmt.Errorf("stripe checkout %s: %w: %s", o.Invoice.ID, ErrUnavailable, stripeReason(err))
	}
	if err := s.refs.PutRef(ctx, s.Module(), o.Invoice.ID, sess.ID); err != nil {
		return "", fmt.Errorf("stripe checkout %s: %w", o.Invoice.ID, err)
	}
	if prev != "" && prev != sess.ID {
		// Only logged: a payment that still arrives on the old page goes to review and is refunded.
		if err := s.expireSession(ctx, prev); err != nil {
			s.log.Warn("replaced payment page left open", "invoice", o.Invoice.ID, "session", prev, "err", stripeReason(err))
		}
	}
	return sess.URL, nil
}

// checkoutKey is the idempotency key of the invoice's session returning to back. Stripe refuses a
// key used again with other parameters, so a page with another return address needs its own.
func checkoutKey(invoiceID, back string) string {
	sum := sha256.Sum256([]byte(back))
	return "streamcart-checkout-" + invoiceID + "-" + hex.EncodeToString(sum[:6])
}

// saveCard makes the session save the card for off-session charges (the buyer consented), to the
// client's Stripe customer when a card was saved for them before, else to a customer the session
// creates. Stripe takes a customer or an email, not both.
func (s *Stripe) saveCard(ctx context.Context, o order.Order, p *stripe.CheckoutSessionCreateParams) error {
	p.PaymentIntentData.SetupFutureUsage = stripe.String(string(stripe.PaymentIntentSetupFutureUsageOffSession))
	customer := ""
	if s.customers != nil {
		var err error
		if customer, err = s.customers.ClientCustomer(ctx, o.ClientID, s.Module()); err != nil {
			return err
		}
	}
	if customer != "" {
		p.Customer, p.CustomerEmail = stripe.String(customer), nil
		return nil
	}
	p.CustomerCreation = stripe.String(string(stripe.CheckoutSessionCustomerCreationAlways))
	return nil
}

// stripeReason keeps what a Stripe error says without the request details.
func stripeReason(err error) string {
	var se *stripe.Error
	if errors.As(err, &se) {
		return fmt.Sprintf("%d %s %s", se.HTTPStatusCode, se.Type, se.Msg)
	}
	return err.Error()
}

// Verify checks the Stripe-Signature header with the library (signature, and a timestamp at most
// StripeTolerance old), then refuses a timestamp more than StripeTolerance ahead, which the
// library lets through. Both against real time, never the test clock. The API version of the
// event is not checked: the dashboard's endpoint version may differ from the library's, and we
// read only fields every version has.
func (s *Stripe) Verify(h http.Header, body []byte) error {
	sig := h.Get("Stripe-Signature")
	_, err := webhook.ConstructEventWithOptions(body, sig, s.cfg.WebhookSecret,
		webhook.ConstructEventOptions{Tolerance: StripeTolerance, IgnoreAPIVersionMismatch: true})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBadSignature, err)
	}
	if ahead := time.Until(stripeSignedAt(sig)); ahead > StripeTolerance {
		return fmt.Errorf("%w: signed %s in the future, more than %s", ErrBadSignature, ahead.Round(time.Second), StripeTolerance)
	}
	return nil
}

// stripeSignedAt is the timestamp of a Stripe-Signature header the library verified: the last
// t= pair, as the library reads it (the signature covers that one).
func stripeSignedAt(header string) time.Time {
	var at time.Time
	for pair := range strings.SplitSeq(header, ",") {
		if v, ok := strings.CutPrefix(pair, "t="); ok {
			if sec, err := strconv.ParseInt(v, 10, 64); err == nil {
				at = time.Unix(sec, 0)
			}
		}
	}
	return at
}

// Parse reads a Checkout Session event.
func (s *Stripe) Parse(body []byte) (Event, error) {
	var e stripe.Event
	if err := json.Unmarshal(body, &e); err != nil {
		return Event{}, fmt.Errorf("%w: %v", ErrBadPayload, err)
	}
	ev := Event{Provider: s.Module(), ID: e.ID, Type: string(e.Type), Kind: KindIgnored}
	if strings.HasPrefix(ev.Type, "payment_intent.") && e.Data != nil {
		return s.intentEvent(ev, e.Data.Raw)
	}
	if !strings.HasPrefix(ev.Type, "checkout.session.") || e.Data == nil {
		return ev, nil
	}
	var sess stripe.CheckoutSession
	if err := json.Unmarshal(e.Data.Raw, &sess); err != nil {
		return Event{}, fmt.Errorf("%w: %v", ErrBadPayload, err)
	}
	ev = s.sessionEvent(ev, &sess)
	switch e.Type {
	case "checkout.session.completed":
		if sess.PaymentStatus != stripe.CheckoutSessionPaymentStatusPaid {
			ev.Kind = KindPending // an async method (SEPA, …) settles later
		}
	case "checkout.session.async_payment_succeeded":
		ev.Kind = KindPaid
	case "checkout.session.async_payment_failed":
		ev.Kind = KindFailed
	default:
		ev.Kind = KindIgnored // expired sessions: our own deadline cancels the order
	}
	return ev, nil
}

func (s *Stripe) sessionEvent(ev Event, sess *stripe.CheckoutSession) Event {
	ev.Kind = KindPaid
	ev.InvoiceID = sess.ClientReferenceID
	if ev.InvoiceID == "" {
		ev.InvoiceID = sess.Metadata["invoice_id"]
	}
	// One session pays one invoice: its id is the transaction, whichever path reports it.
	ev.TransactionID = sess.ID
	ev.Amount = money.Money{Amount: fromStripe(sess.AmountTotal, string(sess.Currency)), Currency: strings.ToUpper(string(sess.Currency))}
	if sess.PaymentIntent != nil {
		ev.PaymentRef = sess.PaymentIntent.ID
	}
	if sess.Customer != nil {
		ev.Customer = sess.Customer.ID
	}
	return ev
}

// Matches accepts an event only for the Checkout Session recorded for its invoice: a session
// opened elsewhere (another shop on the same account, a forged client_reference_id) settles nothing.
func (s *Stripe) Matches(ctx context.Context, ev Event) error {
	if isIntentEvent(ev) {
		return s.matchesCharge(ctx, ev)
	}
	ref, err := s.refs.Ref(ctx, s.Module(), ev.InvoiceID)
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("%w: invoice %s has no Checkout Session", ErrForeignPayment, ev.InvoiceID)
	}
	if err != nil {
		return err
	}
	if ref != ev.TransactionID {
		return fmt.Errorf("%w: session %s, invoice %s was opened as %s", ErrForeignPayment, ev.TransactionID, ev.InvoiceID, ref)
	}
	return nil
}

// ExpireCheckout ends the open Checkout Session of an order that takes no more payment (cancelled,
// or renewed with the saved card), so it can no longer be paid. An invoice without a session has
// nothing to end.
func (s *Stripe) ExpireCheckout(ctx context.Context, o order.Order) error {
	id, err := s.refs.Ref(ctx, s.Module(), o.Invoice.ID)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := s.expireSession(ctx, id); err != nil {
		return fmt.Errorf("stripe expire session %s: %w: %s", id, ErrUnavailable, stripeReason(err))
	}
	return nil
}

// expireSession ends an open Checkout Session. Stripe refuses to expire one that is not open
// (expired at its own deadline, or complete): that one has nothing to end, which Stripe's
// answer on the session itself tells apart from a failure.
func (s *Stripe) expireSession(ctx context.Context, id string) error {
	_, err := s.sc.V1CheckoutSessions.Expire(ctx, id, nil)
	if err == nil {
		return nil
	}
	if sess, rerr := s.sc.V1CheckoutSessions.Retrieve(ctx, id, nil); rerr == nil && sess.Status != "" &&
		sess.Status != stripe.CheckoutSessionStatusOpen {
		return nil
	}
	return err
}

// Refund gives back a payment under review: its payment intent, from the event or else from its
// Checkout Session. The idempotency key makes a retried job refund once.
func (s *Stripe) Refund(ctx context.Context, r order.Review) (string, error) {
	pi := r.PaymentRef
	if pi == "" {
		id := strings.TrimPrefix(r.TransactionID, s.Module()+":")
		sess, err := s.sc.V1CheckoutSessions.Retrieve(ctx, id, nil)
		if err != nil {
			return "", fmt.Errorf("stripe session %s: %w: %s", id, ErrUnavailable, stripeReason(err))
		}
		if sess.PaymentIntent == nil || sess.PaymentIntent.ID == "" {
			return "", fmt.Errorf("stripe session %s has no payment intent to refund", id)
		}
		pi = sess.PaymentIntent.ID
	}
	p := &stripe.RefundCreateParams{
		PaymentIntent: stripe.String(pi),
		Reason:        stripe.String(string(stripe.RefundReasonRequestedByCustomer)),
		Metadata:      map[string]string{"invoice_id": r.InvoiceID, "order_id": r.OrderID, "review": r.Reason},
	}
	p.SetIdempotencyKey("streamcart-refund-" + r.ID)
	re, err := s.sc.V1Refunds.Create(ctx, p)
	if err != nil {
		return "", fmt.Errorf("stripe refund %s: %w: %s", pi, ErrUnavailable, stripeReason(err))
	}
	return re.ID, nil
}

// Inquire retrieves the invoice's Checkout Session.
func (s *Stripe) Inquire(ctx context.Context, o order.Order) (Event, error) {
	id, err := s.refs.Ref(ctx, s.Module(), o.Invoice.ID)
	if err != nil {
		return Event{}, err
	}
	sess, err := s.sc.V1CheckoutSessions.Retrieve(ctx, id, nil)
	if err != nil {
		return Event{}, fmt.Errorf("stripe session %s: %w: %s", id, ErrUnavailable, stripeReason(err))
	}
	ev := s.sessionEvent(Event{Provider: s.Module(), ID: "inquiry:" + id, Type: "session " + string(sess.Status) + "/" + string(sess.PaymentStatus)}, sess)
	if sess.PaymentStatus != stripe.CheckoutSessionPaymentStatusPaid {
		ev.Kind = KindPending
	}
	return ev, nil
}

// RefundAmount gives back amount of an invoice's payment through Stripe's refund API (part of
// it or all); r.ID is the idempotency key, so a repeated call refunds once.
func (s *Stripe) RefundAmount(ctx context.Context, r order.Review, amount money.Money) (string, error) {
	pi := r.PaymentRef
	if pi == "" {
		id := strings.TrimPrefix(r.TransactionID, s.Module()+":")
		sess, err := s.sc.V1CheckoutSessions.Retrieve(ctx, id, nil)
		if err != nil {
			return "", fmt.Errorf("stripe session %s: %w: %s", id, ErrUnavailable, stripeReason(err))
		}
		if sess.PaymentIntent == nil || sess.PaymentIntent.ID == "" {
			return "", fmt.Errorf("stripe session %s has no payment intent to refund", id)
		}
		pi = sess.PaymentIntent.ID
	}
	units, err := toStripe(amount)
	if err != nil {
		return "", err
	}
	p := &stripe.RefundCreateParams{
		PaymentIntent: stripe.String(pi),
		Amount:        stripe.Int64(units),
		Reason:        stripe.String(string(stripe.RefundReasonRequestedByCustomer)),
		Metadata:      map[string]string{"invoice_id": r.InvoiceID, "order_id": r.OrderID, "reason": r.Reason},
	}
	p.SetIdempotencyKey("streamcart-refund-" + r.ID)
	re, err := s.sc.V1Refunds.Create(ctx, p)
	if err != nil {
		return "", fmt.Errorf("stripe refund %s: %w: %s", pi, ErrUnavailable, stripeReason(err))
	}
	return re.ID, nil
}
