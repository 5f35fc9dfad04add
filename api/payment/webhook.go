package payment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
)

// JobWebhook processes one stored webhook; its ref is the webhook's id.
const JobWebhook = "webhook"

// WebhookPath is where provider module's webhooks arrive.
func WebhookPath(module string) string { return "/checkout/api/payments/" + module + "/webhook" }

// maxWebhookBody bounds a webhook body: providers send a few kilobytes.
const maxWebhookBody = 1 << 20

var (
	// ErrBadSignature means a webhook's signature does not verify (or is stale).
	ErrBadSignature = errors.New("payment: bad webhook signature")
	// ErrBadPayload means a verified body is not an event we can read.
	ErrBadPayload = errors.New("payment: malformed webhook payload")
	// ErrNotFound means no such row (webhook, reference).
	ErrNotFound = errors.New("payment: not found")
	// ErrUnavailable means the provider could not be reached or answered an error; retry later.
	ErrUnavailable = errors.New("payment: provider unavailable")
)

// Kind is what an event means for the invoice.
type Kind string

const (
	KindPaid        Kind = "paid"         // settle
	KindWrongAmount Kind = "wrong_amount" // the buyer paid another amount: a payment to review, the order held
	KindFailed      Kind = "failed"       // the payment failed for good
	KindPending     Kind = "pending"      // nothing final yet
	// KindProcessing: the provider has seen the payment and is confirming it (Coinbase's
	// PROCESSING); nothing settles, the buyer is told (Progress).
	KindProcessing Kind = "processing"
	KindIgnored    Kind = "ignored" // an event type we do not act on
)

// Event is a provider's event as Streamcart reads it.
type Event struct {
	Provider      string
	ID            string // the provider's event id: the inbox's deduplication key
	Type          string // the provider's event type or status, for the log
	Kind          Kind
	InvoiceID     string      // ours, as we gave it to the provider
	TransactionID string      // unique per payment: a reused one never settles twice
	Amount        money.Money // the invoice amount the provider charged; for KindWrongAmount, what arrived
	// Expected is what the provider asked for the invoice (KindWrongAmount); zero: the invoice's
	// amount.
	Expected money.Money
	// Reason is why a KindWrongAmount payment cannot settle (order.ReasonShort…); "": worked
	// out from Amount and Expected.
	Reason     string
	PaymentRef string // what the provider refunds by (Stripe: the payment intent); may be ""
	Customer   string // the provider's customer who paid (Stripe), when the event names one
}

// Provider is the webhook side of a gateway.
type Provider interface {
	Module() string
	// Verify checks the signature of a raw webhook body the way the provider signs it.
	Verify(h http.Header, body []byte) error
	// Parse reads the event of a verified body.
	Parse(body []byte) (Event, error)
}

// Matcher is a Provider that can tell whether an event is about the payment it opened for the
// event's invoice (Stripe: the Checkout Session recorded for it). An event that is not settles
// nothing, whatever invoice it names.
type Matcher interface {
	Matches(ctx context.Context, ev Event) error
}

// ErrForeignPayment means an event names an invoice its payment was not opened for.
var ErrForeignPayment = errors.New("payment: event is not about the payment opened for the invoice")

// Inquirer asks a provider where an invoice stands (reconciliation of lost webhooks).
type Inquirer interface {
	Module() string
	// Inquire answers the invoice's state at the provider as an event (Kind pending when unpaid).
	Inquire(ctx context.Context, o order.Order) (Event, error)
}

// Webhook is a stored, verified webhook.
type Webhook struct {
	ID          int64
	Provider    string
	EventID     string
	Body        []byte
	ReceivedAt  time.Time
	ProcessedAt time.Time // zero until processed
	Outcome     string
}

// Inbox keeps verified webhooks.
type Inbox interface {
	// InsertWebhook stores w unless (provider, event id) is stored, and in the same transaction
	// queues its JobWebhook; it returns the stored row and whether this call stored it.
	InsertWebhook(ctx context.Context, w Webhook) (Webhook, bool, error)
	// Webhook reads a stored webhook; ErrNotFound when none.
	Webhook(ctx context.Context, id int64) (Webhook, error)
	// FinishWebhook records what processing did.
	FinishWebhook(ctx context.Context, id int64, outcome string, at time.Time) error
}

// Orders is what a payment event does to orders (order.Orders).
type Orders interface {
	SettleVerified(ctx context.Context, invoiceID string, p order.Payment) (order.Order, error)
	Fail(ctx context.Context, invoiceID string) (order.Order, error)
	HoldPayment(ctx context.Context, invoiceID string, p order.Payment, expected money.Money, reason string) (order.Order, error)
	InvoiceOrder(ctx context.Context, invoiceID string) (order.Order, error)
}

// Webhooks receives, stores and processes provider webhooks.
type Webhooks struct {
	providers map[string]Provider
	inbox     Inbox
	orders    Orders
	notify    func()
	log       *slog.Logger
	now       func() time.Time
	observer  WebhookObserver
	cards     CardStore // nil: no card is kept for renewals
	progress  Progress  // zero: a payment seen and confirming is not recorded
}

// TrackProgress makes a payment a provider reports seen and confirming (KindProcessing) recorded
// in p, once the event is checked like any other, so the buyer is told; call it before serving.
func (w *Webhooks) TrackProgress(p Progress) { w.progress = p }

// KeepCards makes a paid order whose buyer consented to renew with the card (RenewWithCard)
// keep the card that paid it, in cards, for its services' renewals; call it before serving.
func (w *Webhooks) KeepCards(cards CardStore) { w.cards = cards }

// WebhookObserver hears what became of each webhook (metrics). Results on receipt: stored,
// duplicate, rejected (signature), unreadable, error (not stored); outcomes once processed: the
// first word of Apply's outcome (paid, processing, failed, held, review, ignored, refused), or
// error.
type WebhookObserver interface {
	WebhookReceived(provider, result string)
	WebhookProcessed(provider, outcome string)
}

type noObserver struct{}

func (noObserver) WebhookReceived(string, string)  {}
func (noObserver) WebhookProcessed(string, string) {}

// Observe sets who hears of each webhook; call it before serving.
func (w *Webhooks) Observe(o WebhookObserver) { w.observer = o }

// NewWebhooks returns the webhook receiver of providers. notify wakes the job worker once a
// webhook is stored.
func NewWebhooks(inbox Inbox, orders Orders, providers []Provider, notify func(), log *slog.Logger) *Webhooks {
	m := make(map[string]Provider, len(providers))
	for _, p := range providers {
		m[p.Module()] = p
	}
	if notify == nil {
		notify = func() {}
	}
	return &Webhooks{providers: m, inbox: inbox, orders: orders, notify: notify, log: log, now: time.Now, observer: noObserver{}}
}

// Modules lists the providers that receive webhooks.
func (w *Webhooks) Modules() []string {
	out := make([]string, 0, len(w.providers))
	for m := range w.providers {
		out = append(out, m)
	}
	return out
}

// Handler serves POST WebhookPath(module): verify the raw body, store it, answer 2xx. Nothing
// acts on the event before it is stored; a duplicate is answered 200 and stored once.
func (w *Webhooks) Handler(module string) http.HandlerFunc {
	p := w.providers[module]
	return func(rw http.ResponseWriter, r *http.Request) {
		if p == nil {
			http.Error(rw, "Unknown payment provider.", http.StatusNotFound)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(rw, r.Body, maxWebhookBody))
		if err != nil {
			http.Error(rw, "Body too large or unreadable.", http.StatusBadRequest)
			return
		}
		if err := p.Verify(r.Header, body); err != nil {
			w.log.Warn("webhook refused", "provider", module, "err", err)
			w.observer.WebhookReceived(module, "rejected")
			http.Error(rw, "Invalid signature.", http.StatusBadRequest)
			return
		}
		ev, err := p.Parse(body)
		if err != nil || ev.ID == "" {
			w.log.Warn("webhook unreadable", "provider", module, "err", err)
			w.observer.WebhookReceived(module, "unreadable")
			http.Error(rw, "Unreadable event.", http.StatusBadRequest)
			return
		}
		stored, created, err := w.inbox.InsertWebhook(r.Context(), Webhook{Provider: module, EventID: ev.ID, Body: body, ReceivedAt: w.now().UTC()})
		if err != nil {
			// No 2xx: the provider retries, and nothing was acted on.
			w.log.Error("webhook not stored", "provider", module, "event", ev.ID, "err", err)
			w.observer.WebhookReceived(module, "error")
			http.Error(rw, "Try again later.", http.StatusServiceUnavailable)
			return
		}
		if created {
			w.log.Info("webhook stored", "provider", module, "event", ev.ID, "type", ev.Type, "webhook", stored.ID)
			w.notify()
		}
		w.observer.WebhookReceived(module, map[bool]string{true: "stored", false: "duplicate"}[created])
		rw.Header().Set("Content-Type", "application/json")
		rw.Write([]byte(`{"received":true}`))
	}
}

// Handle is the JobWebhook handler: it acts on a stored webhook. Acting is idempotent (a
// settlement happens once per invoice and per transaction id), so a rerun after a crash is safe.
func (w *Webhooks) Handle(ctx context.Context, j job.Job) error {
	id, err := strconv.ParseInt(j.Ref, 10, 64)
	if err != nil {
		return job.Permanent(fmt.Errorf("webhook job %q: %w", j.Ref, err))
	}
	hook, err := w.inbox.Webhook(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return job.Permanent(fmt.Errorf("webhook %d: %w", id, err))
	}
	if err != nil {
		return fmt.Errorf("webhook %d: %w", id, err)
	}
	p := w.providers[hook.Provider]
	if p == nil {
		return fmt.Errorf("webhook %d: provider %s not configured", id, hook.Provider)
	}
	ev, err := p.Parse(hook.Body)
	if err != nil {
		return job.Permanent(fmt.Errorf("webhook %d: %w", id, err))
	}
	outcome, err := w.Apply(ctx, ev)
	if err != nil {
		w.observer.WebhookProcessed(hook.Provider, "error")
		return fmt.Errorf("webhook %d: %w", id, err)
	}
	w.observer.WebhookProcessed(hook.Provider, outcomeWord(outcome))
	w.log.Info("webhook processed", "provider", hook.Provider, "event", ev.ID, "type", ev.Type, "invoice", ev.InvoiceID, "outcome", outcome)
	return w.inbox.FinishWebhook(ctx, id, outcome, w.now().UTC())
}

// outcomeWord is an outcome without its detail ("ignored: unknown invoice" is ignored), a label
// of a few values.
func outcomeWord(outcome string) string {
	word, _, _ := strings.Cut(outcome, ":")
	return word
}

// Apply does what an event means to its invoice and describes the outcome. Only a transient
// failure (the database, the provider) is an error; every final answer is an outcome. An event
// acts only on an invoice of its own provider and, where the provider can tell (Matcher), only
// through the payment opened for that invoice.
func (w *Webhooks) Apply(ctx context.Context, ev Event) (string, error) {
	if ev.Kind == KindPending || ev.Kind == KindIgnored || ev.Kind == "" {
		return "ignored: " + ev.Type, nil
	}
	if ev.InvoiceID == "" {
		return "ignored: no invoice", nil
	}
	o, err := w.orders.InvoiceOrder(ctx, ev.InvoiceID)
	if errors.Is(err, order.ErrNotFound) {
		return "ignored: unknown invoice", nil
	}
	if err != nil {
		return "", err
	}
	if o.Invoice.Gateway != ev.Provider {
		w.log.Warn("webhook for another provider's invoice refused", "provider", ev.Provider, "event", ev.ID,
			"invoice", ev.InvoiceID, "invoice_gateway", o.Invoice.Gateway)
		return "refused: invoice of another provider", nil
	}
	if m, ok := w.providers[ev.Provider].(Matcher); ok {
		err := m.Matches(ctx, ev)
		if errors.Is(err, ErrForeignPayment) {
			w.log.Warn("webhook for another payment refused", "provider", ev.Provider, "event", ev.ID, "invoice", ev.InvoiceID,
				"transaction", ev.TransactionID, "err", err)
			return "refused: not the invoice's payment", nil
		}
		if err != nil {
			return "", err
		}
	}
	switch ev.Kind {
	case KindProcessing:
		if o.Status != order.StatusPending {
			return "ignored: " + ev.Type + " of a " + string(o.Status) + " order", nil
		}
		if err := w.progress.mark(ctx, ev); err != nil {
			return "", err
		}
		return string(ev.Kind), nil
	case KindPaid:
		_, err = w.orders.SettleVerified(ctx, ev.InvoiceID, order.Payment{Provider: ev.Provider,
			TransactionID: ev.Provider + ":" + ev.TransactionID, Ref: ev.PaymentRef, Amount: ev.Amount})
	case KindWrongAmount:
		expected := ev.Expected
		if expected.Currency == "" {
			expected = o.Invoice.Amount
		}
		_, err = w.orders.HoldPayment(ctx, ev.InvoiceID, order.Payment{Provider: ev.Provider,
			TransactionID: ev.Provider + ":" + ev.TransactionID, Ref: ev.PaymentRef, Amount: ev.Amount}, expected, ev.Reason)
		if err == nil {
			return "held: " + ev.Type, nil
		}
	case KindFailed:
		_, err = w.orders.Fail(ctx, ev.InvoiceID)
	}
	if ev.Kind == KindPaid && (err == nil || errors.Is(err, order.ErrAlreadySettled)) && o.RenewWithCard {
		// Also after "already settled": a retry after the card could not be read keeps it then.
		if kept, cerr := w.keepCard(ctx, ev, o); cerr != nil {
			return "", cerr
		} else if kept != "" && err == nil {
			return string(ev.Kind) + ": " + kept, nil
		}
	}
	switch {
	case err == nil:
		return string(ev.Kind), nil
	case errors.Is(err, order.ErrNotFound):
		return "ignored: unknown invoice", nil
	case errors.Is(err, order.ErrAlreadySettled):
		return "ignored: invoice already settled", nil
	case errors.Is(err, order.ErrAmountMismatch):
		return "held: amount mismatch", nil
	case errors.Is(err, order.ErrWrongProvider):
		return "refused: invoice of another provider", nil
	}
	var review *order.ReviewError
	if errors.As(err, &review) {
		return "review: " + review.Reason, nil
	}
	return "", err
}

// keepCard keeps the card that paid o for its services' renewals. A provider that cannot be
// asked now is an error (the webhook job retries); a payment that saved no card is logged and
// described, as nothing will change it.
func (w *Webhooks) keepCard(ctx context.Context, ev Event, o order.Order) (string, error) {
	reader, ok := w.providers[ev.Provider].(CardReader)
	if !ok || w.cards == nil {
		return "", nil
	}
	c, err := reader.SavedCard(ctx, ev)
	if errors.Is(err, ErrNoCard) {
		w.log.Warn("card not kept for renewals", "provider", ev.Provider, "order", o.ID, "err", err)
		return "card not saved", nil
	}
	if err != nil {
		return "", fmt.Errorf("keep card of order %s: %w", o.ID, err)
	}
	c.OrderID = o.ID
	if err := w.cards.SaveCard(ctx, c); err != nil {
		return "", err
	}
	return "card kept", nil
}

// absURL makes a path absolute on the shop's public base URL; an absolute URL stays as it is.
func absURL(publicURL, path string) string {
	if strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://") {
		return path
	}
	return strings.TrimRight(publicURL, "/") + path
}
