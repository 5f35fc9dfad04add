package app_test

import (
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/paylink"
	"github.com/streamcart/streamcart/api/renewal"
)

// payKey is the shop's secret key in these tests, so a test can check pay-link tokens itself.
var payKey = []byte("renewal-mail-test-key-32-bytes!!")

func withPayKey(c *app.Config) { c.SecretKey = base64.StdEncoding.EncodeToString(payKey) }

var payLinkRe = regexp.MustCompile(`https?://\S+/renew\?\S+`)

// payLink is the pay link of a renewal mail: its path, invoice and token.
func payLink(t *testing.T, m mail.Stored) (path, invoice, token string) {
	t.Helper()
	raw := payLinkRe.FindString(m.Body)
	u, err := url.Parse(raw)
	if raw == "" || err != nil {
		t.Fatalf("%q: no pay link in:\n%s", m.Subject, m.Body)
	}
	if !strings.Contains(m.HTML, `href="`+strings.ReplaceAll(raw, "&", "&amp;")+`"`) {
		t.Errorf("%q: the HTML part does not link to %s", m.Subject, raw)
	}
	return u.Path, u.Query().Get("invoice"), u.Query().Get("t")
}

// renewalMails are the renewal mails (any locale's) of the outbox to to, oldest first, as the
// kinds they were recorded as.
func (s *shop) renewalMails(to string) []mail.Stored {
	s.t.Helper()
	var out []mail.Stored
	for _, m := range s.mailsTo(to) {
		if strings.Contains(m.Body, "/renew?invoice=") {
			out = append(out, m)
		}
	}
	return out
}

// reminded runs RemindRenewals on every shop at once, twice over, and answers how many mails
// they queued in all.
func reminded(t *testing.T, shops ...*shop) int {
	t.Helper()
	total := 0
	for range 2 {
		var wg sync.WaitGroup
		var mu sync.Mutex
		for _, sh := range shops {
			wg.Go(func() {
				n, err := sh.app.RemindRenewals(t.Context())
				if err != nil {
					t.Errorf("remind: %v", err)
				}
				mu.Lock()
				total += n
				mu.Unlock()
			})
		}
		wg.Wait()
	}
	return total
}

// daily runs the day's renewal job through the worker (sweep, reminders, lifecycle) as a
// running shop does at the start of each business day.
func daily(t *testing.T, s *shop) {
	t.Helper()
	now := s.app.Now()
	if err := s.app.Store().Enqueue(t.Context(), renewal.JobSweep, now.UTC().Format(time.DateOnly), job.DailyKey(renewal.JobSweep, now), now); err != nil {
		t.Fatal(err)
	}
	s.drain()
}

// dayOf is the start of t's UTC day: the reminders' points are business days.
func dayOf(t time.Time) time.Time { return t.UTC().Truncate(24 * time.Hour) }

// The renewal invoice is mailed when the sweep places it, in the first order's locale, with a
// pay link whose token the shop signed for that invoice alone, until the invoice's deadline.
func TestRenewalInvoiceMailCarriesAPayLink(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, withPayKey)
		ctx, st := t.Context(), s.app.Store()
		de := s.speaking("de-DE,de;q=0.9")
		buyer := de.identify("rechnung@example.com", "")
		_, svcID := de.activeService(buyer.Token, standard())
		svc, err := st.Service(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		advanceTo(t, svc.NextDueDate.Add(-6*24*time.Hour), s)
		if n, err := s.app.SweepRenewals(ctx); err != nil || n != 1 {
			t.Fatalf("sweep: %d %v, want 1 renewal", n, err)
		}
		rn, err := st.LatestRenewal(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		o, err := st.Order(ctx, rn.OrderID)
		if err != nil {
			t.Fatal(err)
		}
		msgs := s.renewalMails("rechnung@example.com")
		if len(msgs) != 1 {
			t.Fatalf("%d renewal mails, want the invoice's", len(msgs))
		}
		m := msgs[0]
		due := mail.FormatDate(svc.NextDueDate, "de-de")
		if m.Subject != "Ihr Test Shop-Abonnement verlängert sich am "+due || !strings.Contains(m.Body, "Verlängerungsrechnung über 12,99\u00a0€") {
			t.Errorf("invoice mail %q:\n%s", m.Subject, m.Body)
		}
		path, invoice, token := payLink(t, m)
		if path != "/checkout/de-de/renew" || invoice != o.Invoice.ID {
			t.Fatalf("pay link %s?invoice=%s, want /checkout/de-de/renew?invoice=%s", path, invoice, o.Invoice.ID)
		}
		links := paylink.New(payKey, s.app.Now)
		if err := links.Check(o.Invoice.ID, token); err != nil {
			t.Fatalf("the token does not open its invoice: %v", err)
		}
		if err := links.Check("inv_another", token); !errors.Is(err, paylink.ErrInvalid) {
			t.Fatalf("the token opens another invoice: %v", err)
		}
		// Good until the invoice's deadline (the period's end), not a moment longer.
		atDeadline := paylink.New(payKey, func() time.Time { return o.Invoice.Deadline.Add(-time.Minute) })
		afterDeadline := paylink.New(payKey, func() time.Time { return o.Invoice.Deadline.Add(time.Minute) })
		if atDeadline.Check(o.Invoice.ID, token) != nil || afterDeadline.Check(o.Invoice.ID, token) == nil {
			t.Fatalf("the token is not good exactly until the deadline %s", o.Invoice.Deadline)
		}
		if strings.Contains(m.Body+m.HTML, svc.Password) {
			t.Fatal("the renewal mail carries the line's password")
		}
		// Sweeping and reminding again the same day sends nothing more.
		if n, err := s.app.SweepRenewals(ctx); err != nil || n != 0 {
			t.Fatalf("second sweep: %d %v", n, err)
		}
		if n := reminded(t, s); n != 0 {
			t.Fatalf("reminders the day the invoice went out: %d, want none", n)
		}
		if n := len(s.renewalMails("rechnung@example.com")); n != 1 {
			t.Fatalf("%d renewal mails, want 1", n)
		}
	})
}

// Each reminder goes on its day, three days before the due date, on it, and the day after, once:
// two replicas each running the reminders twice at every point queue one mail. Each carries a
// fresh token for the same invoice; the overdue one says when the line is suspended.
func TestRenewalRemindersOnceEachWithTwoReplicas(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, withPayKey)
		other := openShop(t, s.cfg)
		ctx, st := t.Context(), s.app.Store()
		buyer := s.identify("remind@example.com", "")
		_, svcID := s.activeService(buyer.Token, standard())
		svc, err := st.Service(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		due := svc.NextDueDate
		advanceTo(t, due.Add(-7*24*time.Hour+time.Hour), s, other)
		if n, _ := s.app.SweepRenewals(ctx); n != 1 {
			t.Fatalf("sweep placed %d, want 1", n)
		}
		rn, err := st.LatestRenewal(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		o, err := st.Order(ctx, rn.OrderID)
		if err != nil {
			t.Fatal(err)
		}
		links := paylink.New(payKey, s.app.Now)
		steps := []struct {
			at      time.Time
			subject string
			body    []string
		}{
			{dayOf(due).Add(-3*24*time.Hour + time.Hour), "Reminder: your Test Shop subscription renews on " + mail.FormatDate(due, "en"),
				[]string{"is still open", "in three days", "€12.99"}},
			{dayOf(due).Add(time.Hour), "Your Test Shop subscription is due today", []string{"due today, " + mail.FormatDate(due, "en")}},
			{dayOf(due).Add(25 * time.Hour), "Payment overdue: your Test Shop line will be suspended on " + mail.FormatDate(due.Add(3*24*time.Hour), "en"),
				[]string{"was due on " + mail.FormatDate(due, "en"), "still unpaid"}},
		}
		tokens := map[string]bool{}
		for i, step := range steps {
			// The day before the point: nothing yet.
			advanceTo(t, step.at.Add(-2*time.Hour), s, other)
			if n := reminded(t, s, other); n != 0 {
				t.Fatalf("before %q: %d mails", step.subject, n)
			}
			advanceTo(t, step.at, s, other)
			if n := reminded(t, s, other); n != 1 {
				t.Fatalf("at %q: two replicas twice queued %d mails, want 1", step.subject, n)
			}
			if n, _ := other.app.SweepRenewals(ctx); n != 0 {
				t.Fatalf("a sweep placed %d more renewals", n)
			}
			msgs := s.renewalMails("remind@example.com")
			if len(msgs) != i+2 {
				t.Fatalf("at %q: %d renewal mails, want %d", step.subject, len(msgs), i+2)
			}
			m := msgs[i+1]
			if m.Subject != step.subject {
				t.Errorf("mail %q, want %q", m.Subject, step.subject)
			}
			for _, w := range step.body {
				if !strings.Contains(m.Body, w) {
					t.Errorf("%q: no %q in:\n%s", m.Subject, w, m.Body)
				}
			}
			path, invoice, token := payLink(t, m)
			if path != "/checkout/renew" || invoice != o.Invoice.ID || links.Check(o.Invoice.ID, token) != nil {
				t.Errorf("%q: pay link %s?invoice=%s does not pay %s", m.Subject, path, invoice, o.Invoice.ID)
			}
			tokens[token] = true
		}
		if len(tokens) != len(steps) {
			t.Errorf("%d distinct tokens in %d mails: want a fresh one in each", len(tokens), len(steps))
		}
		// Nothing after the overdue notice, whatever runs.
		advanceTo(t, due.Add(5*24*time.Hour), s, other)
		lapse(t, s)
		if n := reminded(t, s, other); n != 0 {
			t.Fatalf("after the overdue notice: %d more mails", n)
		}
		if n := s.count(`SELECT COUNT(*) FROM renewal_reminders WHERE order_id = ?`, o.ID); n != 4 {
			t.Fatalf("%d renewal mails recorded, want 4 (invoice, reminder, due, overdue)", n)
		}
		if n := len(s.renewalMails("remind@example.com")); n != 4 {
			t.Fatalf("%d renewal mails, want 4", n)
		}
	})
}

// A clock that jumps past several points sends only the latest that applies, through the daily
// job as a running shop runs it: a renewal invoiced on time and then left until the day after its
// due date gets the overdue notice alone; a line first swept after its due date gets its
// invoice mail alone (the newest news), not a burst of stale reminders.
func TestRenewalReminderClockJumpSendsOnlyTheLatest(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, withPayKey)
		ctx, st := t.Context(), s.app.Store()
		onTime := s.identify("ontime@example.com", "")
		_, onTimeID := s.activeService(onTime.Token, standard())
		svc, err := st.Service(ctx, onTimeID)
		if err != nil {
			t.Fatal(err)
		}
		due := svc.NextDueDate

		// 26 days on (as `streamcart clock advance 26d`): the renewal is invoiced, nothing else.
		advanceTo(t, s.app.Now().Add(26*24*time.Hour), s)
		daily(t, s)
		if msgs := s.renewalMails("ontime@example.com"); len(msgs) != 1 || !strings.HasPrefix(msgs[0].Subject, "Your Test Shop subscription renews on") {
			t.Fatalf("after 26 days: %d renewal mails, want the invoice's alone", len(msgs))
		}
		late := s.identify("late@example.com", "")
		_, lateID := s.activeService(late.Token, standard())
		lateSvc, err := st.Service(ctx, lateID)
		if err != nil {
			t.Fatal(err)
		}

		// Past the reminder, the due day and into the day after due for the first line.
		advanceTo(t, dayOf(due).Add(24*time.Hour+time.Hour), s)
		daily(t, s)
		msgs := s.renewalMails("ontime@example.com")
		if len(msgs) != 2 || !strings.HasPrefix(msgs[1].Subject, "Payment overdue") {
			t.Fatalf("after the jump: %d renewal mails (%v), want the invoice's and the overdue notice", len(msgs), subjects(msgs))
		}
		daily(t, s)
		if n, _ := s.app.RemindRenewals(ctx); n != 0 {
			t.Fatalf("the stale reminder and due-day mail came after all: %d", n)
		}

		// The second line is first swept after its due date: its invoice mail alone.
		advanceTo(t, dayOf(lateSvc.NextDueDate).Add(24*time.Hour+2*time.Hour), s)
		daily(t, s)
		if n, _ := s.app.RemindRenewals(ctx); n != 0 {
			t.Fatalf("late line: %d more mails", n)
		}
		if msgs := s.renewalMails("late@example.com"); len(msgs) != 1 || !strings.HasPrefix(msgs[0].Subject, "Your Test Shop subscription renews on") {
			t.Fatalf("late line: renewal mails %v, want the invoice's alone", subjects(msgs))
		}
		if got := len(s.renewalMails("ontime@example.com")); got != 2 {
			t.Fatalf("first line: %d renewal mails after more days, want 2", got)
		}
	})
}

func subjects(msgs []mail.Stored) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.Subject
	}
	return out
}

// A paid renewal gets no reminder: not three days before, not on the due date, not after.
func TestNoReminderAfterTheRenewalIsPaid(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		ctx, st := t.Context(), s.app.Store()
		buyer := s.identify("paid@example.com", "")
		_, svcID := s.activeService(buyer.Token, standard())
		svc, err := st.Service(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		due := svc.NextDueDate
		advanceTo(t, due.Add(-6*24*time.Hour), s)
		if n, _ := s.app.SweepRenewals(ctx); n != 1 {
			t.Fatalf("sweep placed %d", n)
		}
		rn, err := st.LatestRenewal(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		o, err := st.Order(ctx, rn.OrderID)
		if err != nil {
			t.Fatal(err)
		}
		if resp := s.sandbox(o.Invoice.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay renewal: %d", resp.StatusCode)
		}
		s.drain()
		for _, at := range []time.Time{dayOf(due).Add(-3*24*time.Hour + time.Hour), dayOf(due).Add(time.Hour), dayOf(due).Add(25 * time.Hour)} {
			advanceTo(t, at, s)
			daily(t, s)
			if n := reminded(t, s); n != 0 {
				t.Fatalf("at %s: %d reminders of a paid renewal", at, n)
			}
		}
		if msgs := s.renewalMails("paid@example.com"); len(msgs) != 1 {
			t.Fatalf("renewal mails %v, want the invoice's alone", subjects(msgs))
		}
		if svc, err := st.Service(ctx, svcID); err != nil || svc.Status != order.ServiceActive {
			t.Fatalf("service %+v %v, want Active", svc, err)
		}
	})
}

// A trial's buyer is told, in the trial's locale and before it ends, to continue with a paid
// plan, with a link to the storefront's services view; once, whatever runs afterwards, and not
// for a trial already over.
func TestTrialEndingMailBeforeTheTrialEnds(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		other := openShop(t, s.cfg)
		ctx, st := t.Context(), s.app.Store()
		nl := s.speaking("nl-NL")
		buyer := nl.identify("proef@example.com", "")
		orderID, svcID := nl.activeService(buyer.Token, trial())
		svc, err := st.Service(ctx, svcID)
		if err != nil || !svc.Trial || svc.ExpiresAt.IsZero() {
			t.Fatalf("trial %+v %v", svc, err)
		}
		msgs := s.mailsTo("proef@example.com")
		if len(msgs) != 2 {
			t.Fatalf("mails %v, want line ready and trial ending", subjects(msgs))
		}
		m := msgs[1]
		if m.Subject != "Je Test Shop-proefperiode eindigt op "+mail.FormatDate(svc.ExpiresAt, "nl-nl") ||
			!strings.Contains(m.Body, s.base+"/checkout/nl-nl/?view=services") || !strings.Contains(m.HTML, "Verder met een betaald abonnement") {
			t.Fatalf("trial mail %q:\n%s", m.Subject, m.Body)
		}
		// Recorded (business time, the stored layout) before the trial's end.
		end := svc.ExpiresAt.UTC().Format("2006-01-02T15:04:05.000000Z")
		if n := s.count(`SELECT COUNT(*) FROM renewal_reminders WHERE order_id = ? AND kind = 'trial-ending' AND sent_at < ?`, orderID, end); n != 1 {
			t.Fatalf("trial mail recorded before the end %s: %d rows, want 1", end, n)
		}
		// The daily run of both replicas (which catches a trial whose job was lost) and the
		// worker again: nothing more.
		if n := reminded(t, s, other); n != 0 {
			t.Fatalf("%d more trial mails", n)
		}
		s.drain()
		advanceTo(t, svc.ExpiresAt.Add(time.Hour), s, other)
		lapse(t, s)
		if n := reminded(t, s, other); n != 0 {
			t.Fatalf("after the trial: %d mails", n)
		}
		if n := len(s.mailsTo("proef@example.com")); n != 2 {
			t.Fatalf("%d mails, want 2", n)
		}
	})
}

// A renewal's mails list what it bills, in the buyer's language; once paid, the buyer gets one
// renewal-paid mail with the new due date and the numbered invoice's PDF, which opens from the
// mail without signing in.
func TestRenewalMailsItemisedAndThePaidOneLinksItsPDF(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, withPayKey)
		ctx, st := t.Context(), s.app.Store()
		de := s.speaking("de-DE,de;q=0.9")
		buyer := de.identify("verlaengert@example.com", "")
		_, svcID := de.activeService(buyer.Token, standard())
		svc, err := st.Service(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		advanceTo(t, svc.NextDueDate.Add(-6*24*time.Hour), s)
		if n, err := s.app.SweepRenewals(ctx); err != nil || n != 1 {
			t.Fatalf("sweep: %d %v, want 1 renewal", n, err)
		}
		rn, err := st.LatestRenewal(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		o, err := st.Order(ctx, rn.OrderID)
		if err != nil {
			t.Fatal(err)
		}
		invoiceMail := s.renewalMails("verlaengert@example.com")
		if len(invoiceMail) != 1 || !strings.Contains(invoiceMail[0].Body, "Standard — monatlich: 12,99\u00a0€\nGesamt: 12,99\u00a0€\n") {
			t.Fatalf("the renewal invoice mail is not itemised: %+v", invoiceMail)
		}
		if resp := s.sandbox(o.Invoice.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sandbox pay: %d", resp.StatusCode)
		}
		s.drain()
		s.drain()
		paid, err := st.Order(ctx, o.ID)
		if err != nil || paid.Invoice.Number == "" {
			t.Fatalf("renewal order %+v, %v: want a numbered invoice", paid.Invoice, err)
		}
		var got []mail.Stored
		for _, m := range s.mailsTo("verlaengert@example.com") {
			if m.Subject == "Ihre Test Shop-Verlängerung ist bezahlt" {
				got = append(got, m)
			}
		}
		if len(got) != 1 {
			t.Fatalf("%d renewal-paid mails, want 1", len(got))
		}
		after, err := st.Service(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		body := got[0].Body
		for _, w := range []string{"Standard — monatlich: 12,99\u00a0€", "bis zum " + mail.FormatDate(after.NextDueDate, "de-de"),
			"Ihre Rechnung " + paid.Invoice.Number + " (PDF):", "/checkout/de-de/?view=services"} {
			if !strings.Contains(body, w) {
				t.Errorf("no %q in:\n%s", w, body)
			}
		}
		pdf := regexp.MustCompile(`https?://\S+/invoices/` + paid.Invoice.ID + `\.pdf\?t=\S+`).FindString(body)
		if pdf == "" {
			t.Fatalf("no PDF link in:\n%s", body)
		}
		u, _ := url.Parse(pdf)
		code, hdr, b := s.raw(http.MethodGet, u.RequestURI(), "", nil)
		if code != http.StatusOK || hdr.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(string(b), "%PDF") {
			t.Fatalf("GET %s: %d %s", u.RequestURI(), code, hdr.Get("Content-Type"))
		}
		// Reminders and jobs running again send no second one.
		reminded(t, s)
		s.drain()
		n := 0
		for _, m := range s.mailsTo("verlaengert@example.com") {
			if m.Subject == got[0].Subject {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%d renewal-paid mails after the jobs ran again, want 1", n)
		}
	})
}
