package app_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/renewal"
	"github.com/streamcart/streamcart/api/store/storetest"
	genservices "github.com/streamcart/streamcart/gen/admin_services"
	genadminsummary "github.com/streamcart/streamcart/gen/admin_summary"
	geninvoices "github.com/streamcart/streamcart/gen/invoices"
	genorder "github.com/streamcart/streamcart/gen/order"
)

const cardWebhookSecret = "whsec_card_renewal"

// fakeStripe answers the few Stripe API calls a card renewal makes, as Stripe does (the
// library's client talks to it), and records them: the answer to an off-session PaymentIntent is
// the test's choice (stripe-mock answers every intent alike; api/payment tests the requests
// against it). Like Stripe, it answers a session created again under an Idempotency-Key with the
// first answer, and refuses the key with other parameters.
type fakeStripe struct {
	t   *testing.T
	srv *httptest.Server

	mu       sync.Mutex
	answer   string // succeed, decline, authenticate (an error), requires_action (a 200)
	sessions []url.Values
	byKey    map[string]idempotent // the sessions created, by Idempotency-Key
	expired  []string              // the Checkout Sessions expired, in order
	intents  []url.Values
	keys     []string // the Idempotency-Key of each intent
}

// idempotent is what Stripe keeps of a request made under an Idempotency-Key.
type idempotent struct {
	params string
	answer map[string]any
}

func newFakeStripe(t *testing.T) *fakeStripe {
	f := &fakeStripe{t: t, answer: "succeed", byKey: map[string]idempotent{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeStripe) answerWith(a string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.answer = a
}

func (f *fakeStripe) calls() (sessions, intents int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.sessions), len(f.intents)
}

func (f *fakeStripe) intent(i int) (url.Values, string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.intents[i], f.keys[i]
}

func (f *fakeStripe) serve(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	write := func(status int, v any) {
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/checkout/sessions":
		key := r.Header.Get("Idempotency-Key")
		if was, ok := f.byKey[key]; ok {
			if was.params != r.PostForm.Encode() {
				write(400, map[string]any{"error": map[string]any{"type": "idempotency_error",
					"message": "Keys for idempotent requests can only be used with the same parameters they were first used with."}})
				return
			}
			write(200, was.answer)
			return
		}
		f.sessions = append(f.sessions, r.PostForm)
		id := fmt.Sprintf("cs_test_%d", len(f.sessions))
		answer := map[string]any{"id": id, "object": "checkout.session", "url": "https://checkout.stripe.test/c/" + id,
			"payment_intent": fmt.Sprintf("pi_cs_%d", len(f.sessions)), "status": "open", "payment_status": "unpaid"}
		f.byKey[key] = idempotent{params: r.PostForm.Encode(), answer: answer}
		write(200, answer)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/expire"):
		id := strings.Split(r.URL.Path, "/")[4]
		f.expired = append(f.expired, id)
		write(200, map[string]any{"id": id, "object": "checkout.session", "status": "expired"})
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/payment_intents/"):
		write(200, map[string]any{"id": strings.TrimPrefix(r.URL.Path, "/v1/payment_intents/"), "object": "payment_intent",
			"status": "succeeded", "customer": "cus_card", "payment_method": map[string]any{"id": "pm_card", "object": "payment_method"}})
	case r.Method == http.MethodPost && r.URL.Path == "/v1/payment_intents":
		f.intents = append(f.intents, r.PostForm)
		f.keys = append(f.keys, r.Header.Get("Idempotency-Key"))
		id := fmt.Sprintf("pi_off_%d", len(f.intents))
		meta := map[string]string{}
		for k, v := range r.PostForm {
			if name, ok := strings.CutPrefix(k, "metadata["); ok {
				meta[strings.TrimSuffix(name, "]")] = v[0]
			}
		}
		pi := map[string]any{"id": id, "object": "payment_intent", "amount": json.Number(r.PostForm.Get("amount")),
			"currency": r.PostForm.Get("currency"), "customer": r.PostForm.Get("customer"),
			"payment_method": r.PostForm.Get("payment_method"), "metadata": meta, "status": "succeeded"}
		switch f.answer {
		case "decline", "authenticate":
			code, decline := "card_declined", "insufficient_funds"
			if f.answer == "authenticate" {
				code, decline = "authentication_required", "authentication_required"
			}
			pi["status"] = "requires_payment_method"
			write(402, map[string]any{"error": map[string]any{"type": "card_error", "code": code, "decline_code": decline,
				"message": "Your card was declined.", "payment_intent": pi}})
			return
		case "requires_action":
			pi["status"] = "requires_action"
		}
		write(200, pi)
	default:
		http.Error(w, `{"error":{"type":"invalid_request_error","message":"not faked"}}`, http.StatusNotFound)
	}
}

// withStripe makes a shop sell through Stripe (a fake at stripeURL) and the sandbox.
func withStripe(t *testing.T, stripeURL string) func(*app.Config) {
	return func(c *app.Config) {
		c.CatalogFile = catalogWithGateways(t, "stripe-sandbox")
		c.PublicURL = "https://shop.example"
		c.Payment = payment.Config{StripeSecretKey: "sk_test_card", StripeWebhookSecret: cardWebhookSecret, StripeAPIURL: stripeURL}
	}
}

// cardShop is a shop selling through Stripe (the fake) and the sandbox.
func cardShop(t *testing.T, f *fakeStripe) *shop { return newShop(t, withStripe(t, f.srv.URL)) }

// cardChargeStep is a moment of a saved card's renewal charges: the fake Stripe's answer to the
// charge then, and what renewalCardCharge says after it ("" for null), the renewal open or paid.
type cardChargeStep struct {
	at           time.Time
	answer, want string
	open         bool
}

// cardChargeSteps are a renewal due at due charged to its card: nothing before the due day,
// declined on it, the bank asking the buyer to confirm the next day, paid two days later.
func cardChargeSteps(due time.Time) []cardChargeStep {
	day := due.UTC().Truncate(24 * time.Hour)
	return []cardChargeStep{
		{day.Add(-time.Hour), "decline", "", true}, // before the due day: no charge yet
		{day.Add(time.Hour), "decline", "declined", true},
		{day.AddDate(0, 0, 1), "authenticate", "authentication_required", true},
		{day.AddDate(0, 0, 3).Add(time.Hour), "succeed", "", false},
	}
}

// stripeHook delivers a signed Stripe event to s's webhook and runs the jobs it queues.
func (s *shop) stripeHook(id, typ string, object map[string]any) {
	s.t.Helper()
	body, _ := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": "2020-08-27", "created": time.Now().Unix(),
		"type": typ, "data": map[string]any{"object": object}})
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: cardWebhookSecret, Timestamp: time.Now()})
	status, _, out := s.rawWith(http.MethodPost, payment.WebhookPath("stripe"), "", strings.NewReader(string(body)),
		http.Header{"Stripe-Signature": {signed.Header}})
	if status != http.StatusOK {
		s.t.Fatalf("stripe webhook %s: %d %s", typ, status, out)
	}
	s.drain()
}

// cardService buys a monthly plan through Stripe with "renew with this card" ticked, pays it (the
// session's webhook) and answers the active service, its due date and the buyer's token.
func (s *shop) cardService(f *fakeStripe, email string) (svcID string, due time.Time, token string) {
	s.t.Helper()
	// Bought at 22:00 UTC on the business clock, whatever the hour the test runs at: the
	// schedule's points are UTC days, and the steps of the tests name hours of the due day.
	now := s.app.Now().UTC()
	at := now.Truncate(24 * time.Hour).Add(22 * time.Hour)
	if !at.After(now) {
		at = at.Add(24 * time.Hour)
	}
	advanceTo(s.t, at, s)
	buyer := s.register(email, "card-password")
	p := standard()
	p.Gateway, p.RenewWithCard = ptr("stripe"), ptr(true)
	o := s.buy(buyer.Token, p)
	cs, err := s.app.Store().Ref(s.t.Context(), "stripe", o.InvoiceID)
	if err != nil {
		s.t.Fatal(err)
	}
	s.stripeHook("evt_paid_"+o.OrderID, "checkout.session.completed", map[string]any{
		"id": cs, "object": "checkout.session", "client_reference_id": o.InvoiceID, "payment_status": "paid",
		"amount_total": o.Total.Amount, "currency": "eur", "payment_intent": "pi_first", "customer": "cus_card",
	})
	if got := s.getOrder(buyer.Token, o.OrderID); got.Status != "active" {
		s.t.Fatalf("order %s, want active", got.Status)
	}
	svc, err := s.app.Store().Service(s.t.Context(), o.ServiceIds[0])
	if err != nil || svc.NextDueDate.IsZero() {
		s.t.Fatalf("service %+v %v: want a due date", svc, err)
	}
	return svc.ID, svc.NextDueDate, buyer.Token
}

// cardRenewal is cardService six days before the due date, once the sweep has placed the
// renewal: the service, its due date and the renewal.
func (s *shop) cardRenewal(f *fakeStripe, email string) (svcID string, due time.Time, rn renewal.Renewal) {
	s.t.Helper()
	svcID, due, _ = s.cardService(f, email)
	advanceTo(s.t, due.Add(-6*24*time.Hour), s)
	if n, err := s.app.SweepRenewals(s.t.Context()); err != nil || n != 1 {
		s.t.Fatalf("renewals placed: %d %v, want 1", n, err)
	}
	rn, err := storetest.Inspect(s.app.Store()).LatestRenewal(s.t.Context(), svcID)
	if err != nil {
		s.t.Fatal(err)
	}
	return svcID, due, rn
}

// TestRenewWithCardSavesTheCardAndChargesOnceAtTheDueDay: the consent makes the Checkout Session
// save the card; the paid session keeps it for the service (renewsWithCard). On the due day the
// renewal is charged off-session once, whatever the replicas and sweeps, and the charge settles
// through the webhook path: the due date moves one month, and Stripe's own webhook for the same
// payment afterwards changes nothing.
func TestRenewWithCardSavesTheCardAndChargesOnceAtTheDueDay(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		f := newFakeStripe(t)
		s := cardShop(t, f)
		other := openShop(t, s.cfg) // a second replica on the same database
		ctx, st := t.Context(), storetest.Inspect(s.app.Store())

		svcID, due, token := s.cardService(f, "card@example.com")
		f.mu.Lock()
		first := f.sessions[0]
		f.mu.Unlock()
		if first.Get("payment_intent_data[setup_future_usage]") != "off_session" || first.Get("customer_creation") != "always" {
			t.Fatalf("checkout session %v: want the card saved to a new customer", first)
		}
		if card, err := st.ServiceCard(ctx, svcID); err != nil || card.Customer != "cus_card" || card.PaymentMethod != "pm_card" || card.Provider != "stripe" {
			t.Fatalf("saved card %+v %v: want cus_card / pm_card", card, err)
		}
		if got := s.getService(token, svcID); !got.RenewsWithCard {
			t.Fatal("GET /services: renewsWithCard false, want true")
		}

		advanceTo(t, due.Add(-6*24*time.Hour), s, other)
		if n, err := s.app.SweepRenewals(ctx); err != nil || n != 1 {
			t.Fatalf("renewals placed: %d %v, want 1", n, err)
		}
		rn, err := st.LatestRenewal(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		ro, err := st.Order(ctx, rn.OrderID)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := s.app.ChargeRenewals(ctx); err != nil || n != 0 {
			t.Fatalf("charges before the due day: %d %v", n, err)
		}
		if _, intents := f.calls(); intents != 0 {
			t.Fatalf("%d charges before the due day, want none", intents)
		}

		advanceTo(t, due, s, other)
		var wg sync.WaitGroup
		paid := make([]int, 4)
		for i, sh := range []*shop{s, other, s, other} {
			wg.Go(func() {
				n, err := sh.app.ChargeRenewals(ctx)
				if err != nil {
					t.Errorf("charge: %v", err)
				}
				paid[i] = n
			})
		}
		wg.Wait()
		if _, intents := f.calls(); intents != 1 || paid[0]+paid[1]+paid[2]+paid[3] != 1 {
			t.Fatalf("two replicas sweeping twice: %d charges, %v paid; want exactly one", intents, paid)
		}
		req, key := f.intent(0)
		want := map[string]string{"amount": "1299", "currency": "eur", "customer": "cus_card", "payment_method": "pm_card",
			"off_session": "true", "confirm": "true", "metadata[invoice_id]": ro.Invoice.ID, "metadata[order_id]": ro.ID,
			"metadata[renewal_attempt]": "1"}
		for k, v := range want {
			if req.Get(k) != v {
				t.Errorf("payment intent %s = %q, want %q", k, req.Get(k), v)
			}
		}
		if key != "streamcart-renewal-"+ro.ID+"-1" {
			t.Errorf("idempotency key %q", key)
		}

		s.drain()
		svc, err := st.Service(ctx, svcID)
		if err != nil || svc.Status != order.ServiceActive || !svc.NextDueDate.Equal(monthsOn(due, svc.CreatedAt, 1)) {
			t.Fatalf("service after the charge %+v %v: want Active, due %s", svc, err, monthsOn(due, svc.CreatedAt, 1))
		}
		ro, err = st.Order(ctx, rn.OrderID)
		if err != nil || ro.Status != order.StatusActive || ro.Invoice.TransactionID != "stripe:pi_off_1" {
			t.Fatalf("renewal order %s txn %q %v: want active, stripe:pi_off_1", ro.Status, ro.Invoice.TransactionID, err)
		}
		if charges, err := st.Charges(ctx, ro.ID); err != nil || len(charges) != 1 || charges[0].Outcome != renewal.ChargeSucceeded || charges[0].PaymentIntent != "pi_off_1" {
			t.Fatalf("attempts %+v %v", charges, err)
		}

		// Stripe's webhook for the same charge comes afterwards, twice: nothing more happens.
		for _, id := range []string{"evt_pi_1", "evt_pi_1_again"} {
			s.stripeHook(id, "payment_intent.succeeded", map[string]any{"id": "pi_off_1", "object": "payment_intent", "status": "succeeded",
				"amount": 1299, "currency": "eur", "customer": "cus_card",
				"metadata": map[string]string{"invoice_id": ro.Invoice.ID, "order_id": ro.ID, "renewal_attempt": "1"}})
			hook, err := st.WebhookByEvent(ctx, "stripe", id)
			if err != nil || hook.Outcome != "ignored: invoice already settled" {
				t.Fatalf("webhook %s outcome %q %v", id, hook.Outcome, err)
			}
		}
		if svc, err := st.Service(ctx, svcID); err != nil || !svc.NextDueDate.Equal(monthsOn(due, svc.CreatedAt, 1)) {
			t.Fatalf("service %+v %v: the due date moved again", svc, err)
		}
		if n := s.count(`SELECT COUNT(*) FROM payment_reviews`); n != 0 {
			t.Fatalf("%d payments under review, want none", n)
		}
		lapse(t, s)
		if svc, _ := st.Service(ctx, svcID); svc.Status != order.ServiceActive {
			t.Fatalf("status %s after the lapse, want Active", svc.Status)
		}
	})
}

// TestRenewWithCardDeclinedFallsBackAndRetries: a declined charge, then one that needs the buyer's
// authentication, leave the renewal invoice open (its pay link) and are tried again 1, 3 and 5 days
// after the due day, once each; with the default 3 grace days the line is suspended before the
// last try, whose success re-enables it.
func TestRenewWithCardDeclinedFallsBackAndRetries(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		f := newFakeStripe(t)
		s := cardShop(t, f)
		ctx, st := t.Context(), storetest.Inspect(s.app.Store())
		svcID, due, rn := s.cardRenewal(f, "declined@example.com")
		// The renewal was placed with a Checkout page of its own. The buyer opens the reminder's pay
		// link and pays by card from there: a new page, returning to the pay page, replaces it (the
		// first is expired, and Stripe's idempotency does not refuse the new one). The buyer leaves
		// that page open too: once the saved card pays, it must no longer take a second payment.
		ro, err := st.Order(ctx, rn.OrderID)
		if err != nil {
			t.Fatal(err)
		}
		placed, err := s.app.Store().Ref(ctx, "stripe", ro.Invoice.ID)
		if err != nil {
			t.Fatal(err)
		}
		_, tok := s.payLink(ro.Invoice.ID)
		before, _ := f.calls()
		var wg sync.WaitGroup
		urls := make([]string, 40)
		for i := range urls { // the pay button pressed 40 times at once: one new page, the same for all
			wg.Go(func() {
				res, err := s.after.invoices.Pay(ctx, &geninvoices.PayPayload{InvoiceID: ro.Invoice.ID, T: ptr(tok), Gateway: ptr("stripe")})
				if err != nil {
					t.Error(err)
					return
				}
				urls[i] = res.PaymentURL
			})
		}
		wg.Wait()
		page, err := s.app.Store().Ref(ctx, "stripe", ro.Invoice.ID)
		if err != nil || page == placed {
			t.Fatalf("the pay link's page %q %v: want a session other than the renewal's own %s", page, err, placed)
		}
		if after, _ := f.calls(); after != before+1 || slices.ContainsFunc(urls, func(u string) bool { return !strings.HasSuffix(u, "/"+page) }) {
			t.Fatalf("40 presses made %d sessions and pages %v; want one, %s", after-before, slices.Compact(slices.Sorted(slices.Values(urls))), page)
		}
		day := due.UTC().Truncate(24 * time.Hour)
		steps := []struct {
			at       time.Time
			answer   string
			intents  int // charges made so far
			status   order.ServiceStatus
			orderNow order.Status
		}{
			{day.Add(time.Hour), "decline", 1, order.ServiceActive, order.StatusPending},
			{day.Add(20 * time.Hour), "decline", 1, order.ServiceActive, order.StatusPending}, // same point: no second try
			{day.AddDate(0, 0, 1), "authenticate", 2, order.ServiceOverdue, order.StatusPending},
			{day.AddDate(0, 0, 2), "decline", 2, order.ServiceOverdue, order.StatusPending},
			{day.AddDate(0, 0, 3).Add(time.Hour), "requires_action", 3, order.ServiceOverdue, order.StatusPending},
			{day.AddDate(0, 0, 4).Add(time.Hour), "decline", 3, order.ServiceSuspended, order.StatusPending},
			{day.AddDate(0, 0, 5), "succeed", 4, order.ServiceActive, order.StatusActive},
			{day.AddDate(0, 0, 9), "succeed", 4, order.ServiceActive, order.StatusActive},
		}
		for _, step := range steps {
			advanceTo(t, step.at, s)
			f.answerWith(step.answer)
			for range 2 { // a repeated sweep makes no second attempt
				if _, err := s.app.ChargeRenewals(ctx); err != nil {
					t.Fatalf("%s: charge: %v", step.at, err)
				}
			}
			lapse(t, s)
			s.drain()
			if _, n := f.calls(); n != step.intents {
				t.Fatalf("%s: %d charges, want %d", step.at, n, step.intents)
			}
			svc, err := st.Service(ctx, svcID)
			if err != nil || svc.Status != step.status {
				t.Fatalf("%s: service %s %v, want %s", step.at, svc.Status, err, step.status)
			}
			ro, err := st.Order(ctx, rn.OrderID)
			if err != nil || ro.Status != step.orderNow {
				t.Fatalf("%s: renewal order %s %v, want %s", step.at, ro.Status, err, step.orderNow)
			}
			if step.orderNow == order.StatusPending && (ro.Invoice.Status != order.InvoiceUnpaid || ro.Invoice.PaymentURL == "") {
				t.Fatalf("%s: invoice %+v: want it open with its pay link", step.at, ro.Invoice)
			}
		}
		f.mu.Lock()
		expired := slices.Clone(f.expired)
		f.mu.Unlock()
		// (presses at once may each expire the replaced page: Stripe refuses the repeats, which change nothing)
		if want := []string{placed, page}; !slices.Equal(slices.Compact(expired), want) {
			t.Fatalf("Checkout Sessions expired: %v; want %v (the replaced page, then the open one once the card paid)", expired, want)
		}
		charges, err := st.Charges(ctx, rn.OrderID)
		if err != nil {
			t.Fatal(err)
		}
		got := []string{}
		for _, c := range charges {
			got = append(got, fmt.Sprintf("%d %s %s", c.N, c.Outcome, c.DeclineCode))
		}
		want := []string{"1 declined insufficient_funds", "2 authentication_required authentication_required",
			"3 authentication_required ", "4 succeeded "}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("attempts:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// Paid after the suspension: the same line, enabled again, due a month after the payment.
		svc, _ := st.Service(ctx, svcID)
		if line, err := st.LineByRef(ctx, svcID); err != nil || !line.Enabled {
			t.Fatalf("line %+v %v: want it enabled again", line, err)
		}
		// (the business clock runs on while the test works: to the second)
		if want := monthsFrom(day.AddDate(0, 0, 5), 1); svc.NextDueDate.Sub(want).Abs() > time.Second {
			t.Fatalf("due %s, want %s", svc.NextDueDate, want)
		}
	})
}

// TestRenewWithCardRetriesAnAttemptItsProcessLeft: a process that stopped in the middle of the
// due day's charge left the attempt pending. A sweep a minute later leaves it alone (it may still
// be running); ten minutes on, a sweep makes it again under the same idempotency key, so the
// provider can only answer with one payment, and the renewal is paid.
func TestRenewWithCardRetriesAnAttemptItsProcessLeft(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		f := newFakeStripe(t)
		s := cardShop(t, f)
		ctx, st := t.Context(), storetest.Inspect(s.app.Store())
		_, due, rn := s.cardRenewal(f, "crashed@example.com")
		crashedAt := due.Add(5 * time.Minute)
		advanceTo(t, crashedAt, s)
		if ok, err := s.app.Store().ReserveCharge(ctx, renewal.Attempt{OrderID: rn.OrderID, N: 1, At: crashedAt, Outcome: "pending"}, crashedAt); err != nil || !ok {
			t.Fatalf("the crashed process's reservation: %v %v", ok, err)
		}
		for _, step := range []struct {
			after   time.Duration
			intents int
			paid    int
		}{{time.Minute, 0, 0}, {11 * time.Minute, 1, 1}, {20 * time.Minute, 1, 0}} {
			advanceTo(t, crashedAt.Add(step.after), s)
			paid, err := s.app.ChargeRenewals(ctx)
			if err != nil || paid != step.paid {
				t.Fatalf("%s after the crash: %d paid %v; want %d", step.after, paid, err, step.paid)
			}
			if _, n := f.calls(); n != step.intents {
				t.Fatalf("%s after the crash: %d charges, want %d", step.after, n, step.intents)
			}
		}
		if _, key := f.intent(0); key != "streamcart-renewal-"+rn.OrderID+"-1" {
			t.Fatalf("idempotency key %q: want the crashed attempt's", key)
		}
		s.drain()
		if ro, err := st.Order(ctx, rn.OrderID); err != nil || ro.Status != order.StatusActive {
			t.Fatalf("renewal order %s %v: want active", ro.Status, err)
		}
	})
}

// TestRenewWithCardRefusedWithoutCardGatewayOrRenewal: the consent is refused (400 bad_request,
// nothing stored, no session made) with a gateway that cannot save cards and for a plan that does
// not renew.
func TestRenewWithCardRefusedWithoutCardGatewayOrRenewal(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		f := newFakeStripe(t)
		s := cardShop(t, f)
		buyer := s.identify("refused@example.com", "")
		cases := []struct {
			name    string
			p       genorder.CreatePayload
			message string
		}{
			{"sandbox gateway", genorder.CreatePayload{Pid: 2, BillingCycle: "monthly", Gateway: ptr("sandbox")}, "needs the card gateway (stripe)"},
			{"free trial", genorder.CreatePayload{Pid: 1, BillingCycle: "onetime", Gateway: ptr("stripe")}, "needs a plan that renews"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				p := tc.p
				p.Token, p.RenewWithCard = ptr(buyer.Token), ptr(true)
				_, err := s.order.Create(t.Context(), &p)
				if e := wantErr(t, err, "bad_request", ""); !strings.Contains(e.Message, tc.message) {
					t.Fatalf("message %q, want it to say %q", e.Message, tc.message)
				}
			})
		}
		if n := s.count(`SELECT COUNT(*) FROM orders`); n != 0 {
			t.Fatalf("%d orders stored, want none", n)
		}
		if sessions, _ := f.calls(); sessions != 0 {
			t.Fatalf("%d checkout sessions made, want none", sessions)
		}
		// Without the consent the same sandbox order is placed, and keeps no card.
		o := s.buy(buyer.Token, genorder.CreatePayload{Pid: 2, BillingCycle: "monthly", Gateway: ptr("sandbox")})
		if got, err := s.app.Store().Order(t.Context(), o.OrderID); err != nil || got.RenewWithCard {
			t.Fatalf("order %+v %v: want no consent", got, err)
		}
	})
}

// TestCardRenewalDeclinedIsAFailedRenewal: a saved card declined at the due day leaves its
// renewal invoice open for the pay link, and the dashboard counts that renewal among the failed
// ones (found by hand: it said 0 while the line went Overdue), once however many attempts fail,
// and still once after a later attempt paid it.
func TestCardRenewalDeclinedIsAFailedRenewal(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		f := newFakeStripe(t)
		c := newConsole(t, withStripe(t, f.srv.URL))
		owner := c.roles()["owner"]
		ctx := t.Context()
		failed := func() int {
			t.Helper()
			s, err := c.summary.Get(ctx, &genadminsummary.GetPayload{Session: &owner.cookie, Days: 30})
			if err != nil {
				t.Fatalf("GET /admin/summary: %v", err)
			}
			return s.FailedRenewals
		}
		_, due, _ := c.cardRenewal(f, "declined@example.com")
		if n := failed(); n != 0 {
			t.Fatalf("failedRenewals %d before any charge, want 0", n)
		}
		day := due.UTC().Truncate(24 * time.Hour)
		for i, step := range []struct {
			at     time.Time
			answer string
			want   int
		}{
			{day.Add(time.Hour), "decline", 1},
			{day.Add(25 * time.Hour), "authenticate", 1}, // the same renewal failing again
			{day.Add(73 * time.Hour), "succeed", 1},      // paid at last: it did fail in the period
		} {
			f.answerWith(step.answer)
			advanceTo(t, step.at, c.shop)
			if _, err := c.app.ChargeRenewals(ctx); err != nil {
				t.Fatalf("step %d: charge: %v", i, err)
			}
			c.drain()
			if _, intents := f.calls(); intents != i+1 {
				t.Fatalf("step %d: %d charges, want %d", i, intents, i+1)
			}
			if n := failed(); n != step.want {
				t.Fatalf("step %d (%s): failedRenewals %d, want %d", i, step.answer, n, step.want)
			}
		}
	})
}

// TestRenewWithCardDeclinedTellsTheBuyer: the buyer's GET /services says why the saved card did
// not pay the open renewal (renewalCardCharge: declined, then authentication_required), so My
// services can say so and offer the pay link; nothing before the due day's charge, nothing once
// the card paid.
func TestRenewWithCardDeclinedTellsTheBuyer(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		f := newFakeStripe(t)
		s := cardShop(t, f)
		ctx := t.Context()
		svcID, due, _ := s.cardService(f, "told@example.com")
		advanceTo(t, due.Add(-6*24*time.Hour), s)
		if n, err := s.app.SweepRenewals(ctx); err != nil || n != 1 {
			t.Fatalf("renewals placed: %d %v, want 1", n, err)
		}
		for _, step := range cardChargeSteps(due) {
			advanceTo(t, step.at, s)
			f.answerWith(step.answer)
			if _, err := s.app.ChargeRenewals(ctx); err != nil {
				t.Fatalf("%s: charge: %v", step.at, err)
			}
			s.drain()
			// (signed in again: a session lasts days of business time)
			got := s.getService(s.identify("told@example.com", "card-password").Token, svcID)
			if (got.RenewalInvoiceID != nil) != step.open || deref(got.RenewalCardCharge) != step.want || !got.RenewsWithCard {
				t.Errorf("%s: renewalInvoiceId %v, renewalCardCharge %q, renewsWithCard %v; want open %v, %q", step.at,
					deref(got.RenewalInvoiceID), deref(got.RenewalCardCharge), got.RenewsWithCard, step.open, step.want)
			}
		}
	})
}

// TestConsoleListSaysTheCardDidNotPay: the console's list of lines (GET /admin/services) says
// why a line's saved card did not pay its open renewal, as the buyer's My services does
// (renewalCardCharge: declined, then authentication_required), so the seller sees the failed
// charge too; null before the due day's charge and once the card paid.
func TestConsoleListSaysTheCardDidNotPay(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		f := newFakeStripe(t)
		c := newConsole(t, withStripe(t, f.srv.URL))
		ctx := t.Context()
		owner := c.roles()["owner"]
		svcID, due, _ := c.cardRenewal(f, "seller-sees@example.com")
		for i, step := range cardChargeSteps(due) {
			f.answerWith(step.answer)
			advanceTo(t, step.at, c.shop)
			if _, err := c.app.ChargeRenewals(ctx); err != nil {
				t.Fatalf("step %d: charge: %v", i, err)
			}
			c.drain()
			res, err := c.clientsOf().services.List(ctx, &genservices.ListPayload{Session: &owner.cookie, Limit: 50})
			if err != nil {
				t.Fatalf("step %d: GET /admin/services: %v", i, err)
			}
			var line *genservices.AdminSubscription
			for _, r := range res.Services {
				if r.ServiceID == svcID {
					line = r
				}
			}
			if line == nil {
				t.Fatalf("step %d: line %s not listed", i, svcID)
			}
			if (line.RenewalInvoiceID != nil) != step.open || deref(line.RenewalCardCharge) != step.want || !line.RenewsWithCard {
				t.Errorf("step %d (%s): renewalInvoiceId %v, renewalCardCharge %q, renewsWithCard %v; want open %v, %q", i, step.at,
					deref(line.RenewalInvoiceID), deref(line.RenewalCardCharge), line.RenewsWithCard, step.open, step.want)
			}
		}
	})
}

// TestCardRenewalMailsSayTheCardPays: the renewal mails of a line that renews with a saved card
// say, in the buyer's locale, that the card is charged on the due date (not "pay it before
// then"); once the due day's charge was declined, the due mail says so and to pay by the link.
func TestCardRenewalMailsSayTheCardPays(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		f := newFakeStripe(t)
		s := cardShop(t, f)
		ctx := t.Context()
		de := s.speaking("de-DE,de;q=0.9")
		_, due, _ := de.cardService(f, "karte@example.com")
		advanceTo(t, due.Add(-6*24*time.Hour), s)
		if n, err := s.app.SweepRenewals(ctx); err != nil || n != 1 {
			t.Fatalf("renewals placed: %d %v, want 1", n, err)
		}
		german, _ := mail.TextsOf("de-de")
		msgs := s.renewalMails("karte@example.com")
		if len(msgs) != 1 {
			t.Fatalf("%d renewal mails, want the invoice's", len(msgs))
		}
		if b := msgs[0].Body; !strings.Contains(b, "Ihre gespeicherte Karte wird am ") || strings.Contains(b, german.RenewalInvoiceNext) {
			t.Errorf("the renewal invoice mail of a card line:\n%s\nwant the card charged on the due date, not %q", b, german.RenewalInvoiceNext)
		}

		day := due.UTC().Truncate(24 * time.Hour)
		advanceTo(t, day.Add(time.Hour), s)
		f.answerWith("decline")
		if _, err := s.app.ChargeRenewals(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := s.app.RemindRenewals(ctx); err != nil {
			t.Fatal(err)
		}
		s.drain()
		msgs = s.renewalMails("karte@example.com")
		last := msgs[len(msgs)-1]
		if !strings.Contains(last.Body, german.CardDeclined) || strings.Contains(last.Body, german.DueNext) {
			t.Errorf("the due mail after a declined charge (%q):\n%s\nwant %q", last.Subject, last.Body, german.CardDeclined)
		}
	})
}
