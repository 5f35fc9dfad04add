package app_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/whmcs/whmcsfake"
	"github.com/streamcart/streamcart/api/whmcs/whmcsorder"
	genactions "github.com/streamcart/streamcart/gen/admin_order_actions"
)

// refundsOut are the fake's transactions paying money out (refunds), in order.
func refundsOut(st whmcsfake.State) []whmcsfake.TransactionState {
	var out []whmcsfake.TransactionState
	for _, tx := range st.Transactions {
		if tx.Refunded != "0.00" {
			out = append(out, tx)
		}
	}
	return out
}

// moduleCalls counts the fake module's calls of function.
func moduleCalls(st whmcsfake.State, function string) int {
	n := 0
	for _, m := range st.Module {
		if m.Function == function {
			n++
		}
	}
	return n
}

// TestWHMCSPartialRefund: a partial refund from the console is recorded on the WHMCS invoice
// too (AddTransaction paying out the refunded amount), once: 40 submissions at once with one
// Idempotency-Key are one refund and one transaction; WHMCS down, the job waits; its answer
// lost, the retry finds it and posts nothing more. The service is not ended, the invoice stays
// Paid. A later full refund of the rest records only the rest and ends the service once.
func TestWHMCSPartialRefund(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, drop := whmcsConsole(t)
		cl := c.clientsOf()
		owner := c.roles()["owner"]
		id, token := paidWHMCSOrder(t, c, "partial@example.com")
		refund := func(amount *int64, key string) (*genactions.RefundResult, error) {
			return cl.actions.Refund(t.Context(), &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf,
				ID: id, Amount: amount, Reason: "a gesture", IdempotencyKey: &key})
		}
		f.SetStatus(http.StatusServiceUnavailable)
		var wg sync.WaitGroup
		for i := range 40 {
			wg.Go(func() {
				if r, err := refund(ptr(int64(500)), "part-1"); err != nil || r.Refunded.Amount != 500 {
					t.Errorf("refund %d: %+v %v", i, r, err)
				}
			})
		}
		wg.Wait()
		if n := c.count(`SELECT COUNT(*) FROM order_refunds WHERE order_id = ?`, id); n != 1 {
			t.Fatalf("%d refunds for one Idempotency-Key", n)
		}
		if got := c.getOrder(token, id); got.Status != "partially_refunded" {
			t.Fatalf("order %s, want partially_refunded", got.Status)
		}
		// WHMCS down: the recording waits, visible as a queued job.
		c.drain()
		if n := c.count(`SELECT COUNT(*) FROM jobs WHERE kind = ? AND state = ? AND attempts = 1`, whmcsorder.JobRecordRefund, store.JobQueued); n != 1 {
			t.Fatalf("%d record-refund jobs queued again after one attempt, want 1", n)
		}
		// Back, but AddTransaction's answer is lost: the retry finds it and posts nothing more.
		f.SetStatus(0)
		drop.arm("AddTransaction")
		c.clock.Add(time.Hour)
		c.drain()
		drop.arm("")
		c.clock.Add(2 * time.Hour)
		c.drain()
		if n := c.count(`SELECT COUNT(*) FROM jobs WHERE kind = ? AND state = ?`, whmcsorder.JobRecordRefund, store.JobDone); n != 1 {
			t.Fatalf("%d record-refund jobs done, want 1", n)
		}
		st := f.State()
		out := refundsOut(st)
		if len(out) != 1 || out[0].Refunded != "5.00" || out[0].InvoiceID != st.Invoices[0].ID || !strings.HasPrefix(out[0].TransID, "refund:ref_") ||
			out[0].Gateway != "banktransfer" || f.CallCount("AddTransaction") != 1 {
			t.Fatalf("WHMCS refunds %+v (AddTransaction %d): want one of 5.00 on the invoice", out, f.CallCount("AddTransaction"))
		}
		if st.Services[0].Status != "Active" || moduleCalls(st, "TerminateAccount") != 0 || st.Invoices[0].Status != "Paid" {
			t.Fatalf("WHMCS service %+v invoice %+v after a partial refund: want it running, the invoice paid", st.Services[0], st.Invoices[0])
		}
		if svc := c.getService(token, c.getOrder(token, id).ServiceIds[0]); svc.Status != "Active" || svc.Username == "" {
			t.Fatalf("service after a partial refund %+v", svc)
		}

		// The rest: recorded alone (the first is not posted again), the service ended once.
		r, err := refund(nil, "rest")
		if err != nil || r.Refund.Amount.Amount != 2159-500 {
			t.Fatalf("full refund of the rest: %+v %v", r, err)
		}
		c.drain()
		st = f.State()
		out = refundsOut(st)
		if len(out) != 2 || out[1].Refunded != "16.59" || f.CallCount("AddTransaction") != 2 || st.Invoices[0].Status != "Refunded" ||
			st.Services[0].Status != "Terminated" || moduleCalls(st, "TerminateAccount") != 1 {
			t.Fatalf("WHMCS after the rest: refunds %+v, AddTransaction %d, invoice %+v, service %+v",
				out, f.CallCount("AddTransaction"), st.Invoices[0], st.Services[0])
		}
		if !strings.HasPrefix(out[1].TransID, "refund:ref_") {
			t.Fatalf("refund transaction id %q", out[1].TransID)
		}
	})
}
