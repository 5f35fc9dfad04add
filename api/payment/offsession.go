package payment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/stripe/stripe-go/v85"

	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/renewal"
)

// Automatic card renewal: a Checkout Session the buyer consented in saves the card
// (setup_future_usage=off_session); once its order is paid, the webhook keeps the card's
// customer and payment method for the order's services (CardReader, CardStore); each renewal is
// then charged off-session with a PaymentIntent (CardCharger), which is settled through the
// webhook path (Webhooks.Apply), so the payment_intent.succeeded webhook that follows changes
// nothing.

// chargeScope is the Refs scope of the off-session charges made for an invoice: its key is the
// invoice id, its ref the latest PaymentIntent ("" while the first is being made).
const chargeScope = "stripe_charge"

// metaAttempt is the metadata key that marks a PaymentIntent as an off-session renewal charge
// (Checkout's own PaymentIntents carry the invoice id too, and are settled by their session).
const metaAttempt = "renewal_attempt"

// Customers finds the Stripe customer a client's earlier saved card belongs to.
type Customers interface {
	// ClientCustomer is the provider's customer of the client's latest saved card; "" when none.
	ClientCustomer(ctx context.Context, clientID int64, provider string) (string, error)
}

// CardStore keeps the cards saved for renewals.
type CardStore interface {
	Customers
	// SaveCard keeps c for every service of the order c.OrderID.
	SaveCard(ctx context.Context, c order.Card) error
}

// CardReader is a Provider that can tell which card paid an event's payment, once paid.
type CardReader interface {
	// SavedCard answers the customer and payment method the event's payment saved;
	// ErrUnavailable when the provider cannot be asked now, ErrNoCard when it saved none.
	SavedCard(ctx context.Context, ev Event) (order.Card, error)
}

// ErrNoCard means a payment saved no reusable card (no customer or payment method).
var ErrNoCard = errors.New("payment: no card saved")

// isIntentEvent reports whether ev is about a PaymentIntent (an off-session charge) rather than a
// Checkout Session.
func isIntentEvent(ev Event) bool { return strings.HasPrefix(ev.Type, "payment_intent.") }

// intentEvent reads a PaymentIntent event: only an off-session renewal charge (metaAttempt) that
// succeeded pays its invoice. A failed one settles nothing: the charger recorded the decline and
// the invoice stays open for its pay link.
func (s *Stripe) intentEvent(ev Event, raw json.RawMessage) (Event, error) {
	var pi stripe.PaymentIntent
	if err := json.Unmarshal(raw, &pi); err != nil {
		return Event{}, fmt.Errorf("%w: %v", ErrBadPayload, err)
	}
	if pi.Metadata[metaAttempt] == "" {
		return ev, nil // a Checkout Session's own intent: its session's event settles it
	}
	ev = s.chargeEvent(ev, &pi)
	if ev.Type != "payment_intent.succeeded" {
		ev.Kind = KindIgnored
	}
	return ev, nil
}

// chargeEvent is the payment event of an off-session PaymentIntent: the intent is the
// transaction, whichever path (the charger, the webhook) reports it.
func (s *Stripe) chargeEvent(ev Event, pi *stripe.PaymentIntent) Event {
	ev.Provider, ev.Kind = s.Module(), KindPaid
	ev.InvoiceID = pi.Metadata["invoice_id"]
	ev.TransactionID, ev.PaymentRef = pi.ID, pi.ID
	ev.Amount = money.Money{Amount: fromStripe(pi.Amount, string(pi.Currency)), Currency: strings.ToUpper(string(pi.Currency))}
	if pi.Customer != nil {
		ev.Customer = pi.Customer.ID
	}
	return ev
}

// matchesCharge accepts a PaymentIntent event only for an invoice this shop charged off-session.
func (s *Stripe) matchesCharge(ctx context.Context, ev Event) error {
	_, err := s.refs.Ref(ctx, chargeScope, ev.InvoiceID)
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("%w: invoice %s was never charged off-session", ErrForeignPayment, ev.InvoiceID)
	}
	return err
}

// SavedCard reads the customer and payment method of a paid Checkout Session's PaymentIntent:
// the customer from the event when it carries it, the rest from the API.
func (s *Stripe) SavedCard(ctx context.Context, ev Event) (order.Card, error) {
	id := ev.PaymentRef
	if id == "" {
		sess, err := s.sc.V1CheckoutSessions.Retrieve(ctx, ev.TransactionID, nil)
		if err != nil {
			return order.Card{}, fmt.Errorf("stripe session %s: %w: %s", ev.TransactionID, ErrUnavailable, stripeReason(err))
		}
		if sess.PaymentIntent == nil || sess.PaymentIntent.ID == "" {
			return order.Card{}, fmt.Errorf("stripe session %s: %w: no payment intent", ev.TransactionID, ErrNoCard)
		}
		id = sess.PaymentIntent.ID
	}
	p := &stripe.PaymentIntentRetrieveParams{}
	p.AddExpand("payment_method")
	pi, err := s.sc.V1PaymentIntents.Retrieve(ctx, id, p)
	if err != nil {
		return order.Card{}, fmt.Errorf("stripe payment intent %s: %w: %s", id, ErrUnavailable, stripeReason(err))
	}
	c := order.Card{Provider: s.Module(), Customer: ev.Customer, SavedAt: s.now().UTC()}
	if c.Customer == "" && pi.Customer != nil {
		c.Customer = pi.Customer.ID
	}
	if pi.PaymentMethod != nil {
		c.PaymentMethod = pi.PaymentMethod.ID
	}
	if c.Customer == "" || c.PaymentMethod == "" {
		return order.Card{}, fmt.Errorf("stripe payment intent %s: %w (customer %q, payment method %q)", id, ErrNoCard, c.Customer, c.PaymentMethod)
	}
	return c, nil
}

// Charge is an off-session PaymentIntent's answer as Streamcart reads it.
type Charge struct {
	Outcome     string // a renewal.Charge* outcome
	DeclineCode string
	Event       Event // the payment event when Outcome is succeeded
}

// ChargeOffSession charges card off-session for o's invoice: a PaymentIntent confirmed at once,
// with the invoice's amount and currency. The idempotency key (order and attempt) makes a
// repeated attempt return the first one's intent instead of charging twice. A decline or a
// required authentication is an outcome; an error means the provider could not answer.
func (s *Stripe) ChargeOffSession(ctx context.Context, o order.Order, card order.Card, attempt int) (Charge, error) {
	amount, err := toStripe(o.Invoice.Amount)
	if err != nil {
		return Charge{}, fmt.Errorf("stripe charge %s: %w", o.Invoice.ID, err)
	}
	// Recorded before the charge: its webhook may arrive before this call returns.
	if _, err := s.refs.Ref(ctx, chargeScope, o.Invoice.ID); errors.Is(err, ErrNotFound) {
		if err := s.refs.PutRef(ctx, chargeScope, o.Invoice.ID, ""); err != nil {
			return Charge{}, fmt.Errorf("stripe charge %s: %w", o.Invoice.ID, err)
		}
	} else if err != nil {
		return Charge{}, fmt.Errorf("stripe charge %s: %w", o.Invoice.ID, err)
	}
	meta := map[string]string{"invoice_id": o.Invoice.ID, "order_id": o.ID, metaAttempt: strconv.Itoa(attempt)}
	p := &stripe.PaymentIntentCreateParams{
		Amount:        stripe.Int64(amount),
		Currency:      stripe.String(strings.ToLower(o.Invoice.Amount.Currency)),
		Customer:      stripe.String(card.Customer),
		PaymentMethod: stripe.String(card.PaymentMethod),
		OffSession:    stripe.Bool(true),
		Confirm:       stripe.Bool(true),
		Description:   stripe.String("Renewal " + o.ID),
		Metadata:      meta,
	}
	p.SetIdempotencyKey(fmt.Sprintf("streamcart-renewal-%s-%d", o.ID, attempt))
	pi, err := s.sc.V1PaymentIntents.Create(ctx, p)
	var se *stripe.Error
	if errors.As(err, &se) && (se.Type == stripe.ErrorTypeCard || se.Type == stripe.ErrorTypeInvalidRequest) {
		return refusedCharge(se), nil
	}
	if err != nil {
		return Charge{}, fmt.Errorf("stripe charge %s: %w: %s", o.Invoice.ID, ErrUnavailable, stripeReason(err))
	}
	if err := s.refs.PutRef(ctx, chargeScope, o.Invoice.ID, pi.ID); err != nil {
		return Charge{}, fmt.Errorf("stripe charge %s: %w", o.Invoice.ID, err)
	}
	c := Charge{Event: s.chargeEvent(Event{ID: "charge:" + pi.ID, Type: "payment_intent." + string(pi.Status)}, pi)}
	switch pi.Status {
	case stripe.PaymentIntentStatusSucceeded:
		c.Outcome = renewal.ChargeSucceeded
	case stripe.PaymentIntentStatusProcessing:
		c.Outcome = renewal.ChargeProcessing
	case stripe.PaymentIntentStatusRequiresAction:
		c.Outcome = renewal.ChargeAuthRequired
	default: // requires_payment_method: the card was refused
		c.Outcome = renewal.ChargeDeclined
		if e := pi.LastPaymentError; e != nil {
			c.DeclineCode = declineCode(string(e.DeclineCode), string(e.Code))
		}
	}
	return c, nil
}

// refusedCharge reads Stripe's refusal of an off-session charge: a card error is a decline (or a
// required authentication), an invalid request (a detached card, a deleted customer) a refusal.
func refusedCharge(se *stripe.Error) Charge {
	c := Charge{Outcome: renewal.ChargeRefused, DeclineCode: string(se.Code)}
	if se.Type == stripe.ErrorTypeCard {
		c.Outcome, c.DeclineCode = renewal.ChargeDeclined, declineCode(string(se.DeclineCode), string(se.Code))
		if se.Code == stripe.ErrorCodeAuthenticationRequired {
			c.Outcome = renewal.ChargeAuthRequired
		}
	}
	if se.PaymentIntent != nil {
		c.Event.TransactionID = se.PaymentIntent.ID // recorded with the attempt
	}
	return c
}

// declineCode is the bank's decline code, or else Stripe's error code.
func declineCode(decline, code string) string {
	if decline != "" {
		return decline
	}
	return code
}

// CardCharger charges renewals to saved Stripe cards (renewal.Charger) and settles a charge that
// succeeded through the webhook path.
type CardCharger struct {
	stripe *Stripe
	apply  *Webhooks
}

var _ renewal.Charger = (*CardCharger)(nil)

// NewCardCharger returns the off-session charger of s, settling through w.
func NewCardCharger(s *Stripe, w *Webhooks) *CardCharger { return &CardCharger{stripe: s, apply: w} }

// Module names the gateway whose saved cards it charges.
func (c *CardCharger) Module() string { return c.stripe.Module() }

// ChargeRenewal charges card for o's invoice (attempt n) and settles it when paid, exactly as the
// payment_intent.succeeded webhook would.
func (c *CardCharger) ChargeRenewal(ctx context.Context, o order.Order, card order.Card, n int) (renewal.Outcome, error) {
	ch, err := c.stripe.ChargeOffSession(ctx, o, card, n)
	if err != nil {
		return renewal.Outcome{}, err
	}
	out := renewal.Outcome{Status: ch.Outcome, DeclineCode: ch.DeclineCode, PaymentIntent: ch.Event.TransactionID}
	if ch.Outcome != renewal.ChargeSucceeded {
		return out, nil
	}
	settled, err := c.apply.Apply(ctx, ch.Event)
	if err != nil {
		return out, fmt.Errorf("settle %s: %w", ch.Event.TransactionID, err)
	}
	c.apply.log.Info("renewal charge settled", "invoice", o.Invoice.ID, "payment", ch.Event.TransactionID, "outcome", settled)
	// The invoice's Checkout page, if the buyer opened its pay link, would take a second payment.
	// A failure is only logged: a payment that still arrives there goes to review and is refunded.
	if err := c.stripe.ExpireCheckout(ctx, o); err != nil {
		c.apply.log.Warn("payment page left open", "invoice", o.Invoice.ID, "err", err)
	}
	return out, nil
}
