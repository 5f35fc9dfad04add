package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/store"
)

func TestPaymentsReviewListsEachPayment(t *testing.T) {
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	reviews := []order.Review{
		{ID: "pay_1", OrderID: "ord_1", InvoiceID: "inv_1", Provider: "stripe", Amount: money.Money{Amount: 1599, Currency: "EUR"},
			Reason: order.ReasonCancelled, RefundID: "re_1", RefundedAt: at, CreatedAt: at},
		{ID: "pay_2", OrderID: "ord_2", InvoiceID: "inv_2", Provider: "cryptomus", Amount: money.Money{Amount: 2000, Currency: "USD"},
			Reason: order.ReasonHeld, CreatedAt: at},
		{ID: "pay_3", OrderID: "ord_3", InvoiceID: "inv_3", Provider: "stripe", Amount: money.Money{Amount: 500, Currency: "GBP"},
			Reason: order.ReasonLineGone, RefundError: "stripe unavailable", CreatedAt: at},
	}
	var out bytes.Buffer
	if err := printReviews(&out, reviews); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := [][]string{
		{"ID", "ORDER", "INVOICE", "PROVIDER", "AMOUNT", "CURRENCY", "EXPECTED", "REASON", "STATE", "REFUNDED"},
		{"ord_1", "inv_1", "stripe", "1599", "EUR", "cancelled", "yes", "re_1"},
		{"ord_2", "inv_2", "cryptomus", "2000", "USD", "held", "no", "refund by hand"},
		{"ord_3", "inv_3", "stripe", "500", "GBP", "line_gone", "no", "stripe unavailable"},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i, fields := range want {
		for _, f := range fields {
			if !strings.Contains(lines[i], f) {
				t.Errorf("line %d %q lacks %q", i, lines[i], f)
			}
		}
	}
}

// Finding 4 of issue 24: `streamcart payments review` lists the payments to review (state
// review), as the console does; --state lists the decided ones, and an unknown state is refused.
func TestPaymentsReviewCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "shop.db")
	st, err := store.OpenURL(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now().UTC()
	err = st.WithTx(t.Context(), func(tx order.Tx) error {
		for _, r := range []order.Review{
			{ID: "pay_short", OrderID: "ord_1", InvoiceID: "inv_1", Provider: "stripe", TransactionID: "stripe:cs_1",
				Amount: money.Money{Amount: 1, Currency: "EUR"}, Expected: money.Money{Amount: 1299, Currency: "EUR"}, Reason: order.ReasonShort, CreatedAt: at},
			{ID: "pay_done", OrderID: "ord_2", InvoiceID: "inv_2", Provider: "stripe", TransactionID: "stripe:cs_2",
				Amount: money.Money{Amount: 1299, Currency: "USD"}, Expected: money.Money{Amount: 1299, Currency: "EUR"}, Reason: order.ReasonCurrency,
				State: order.ReviewAccepted, CreatedAt: at},
		} {
			if _, err := tx.InsertReview(t.Context(), r); err != nil {
				return err
			}
		}
		return nil
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args      []string
		want, not string
	}{
		{nil, "pay_short", "pay_done"},
		{[]string{"--state", "accepted"}, "pay_done", "pay_short"},
	} {
		out := captureStdout(t, func() error { return run(append([]string{"payments", "review", "--db", db}, tc.args...)) })
		if !strings.Contains(out, tc.want) || strings.Contains(out, tc.not) || !strings.Contains(out, "1299 EUR") {
			t.Fatalf("payments review %v:\n%s\nwant %s, not %s", tc.args, out, tc.want, tc.not)
		}
	}
	if err := run([]string{"payments", "review", "--db", db, "--state", "lost"}); err == nil {
		t.Fatal("payments review --state lost: no error")
	}
	if err := run([]string{"payments"}); err == nil {
		t.Fatal("payments without review: no error")
	}
}
