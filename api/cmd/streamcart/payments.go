package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/streamcart/streamcart/api/order"
)

// paymentsCommand runs `payments review`: the payments that arrived for an order that could not
// deliver them, whether each was refunded, and what the operator must still refund by hand.
func paymentsCommand(ctx context.Context, args []string) error {
	if len(args) < 2 || args[1] != "review" {
		return fmt.Errorf("payments: want review\n%s", usage)
	}
	s, cfg := readOnlySettings("payments review")
	limit := s.Flags().Int("limit", 100, "how many payments at most, newest first")
	if err := s.Parse(args[2:], os.Stdout); err != nil {
		return err
	}
	st, err := openExisting(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	reviews, err := st.Reviews(ctx, *limit)
	if err != nil {
		return err
	}
	return printReviews(os.Stdout, reviews)
}

// automaticRefunds are the gateways that refund a payment under review themselves
// (order.Refunder): the others' payments are refunded by the operator.
var automaticRefunds = map[string]bool{"sandbox": true, "stripe": true}

// printReviews writes one line per payment under review; REFUNDED is "no" until the provider
// confirmed the refund, and NOTE says what went wrong or that the refund is by hand.
func printReviews(out io.Writer, reviews []order.Review) error {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "AT\tORDER\tINVOICE\tPROVIDER\tAMOUNT (MINOR UNITS)\tCURRENCY\tREASON\tREFUNDED\tNOTE")
	for _, r := range reviews {
		refunded, note := "no", r.RefundError
		switch {
		case r.Refunded():
			refunded, note = "yes", r.RefundID
		case note != "":
		case automaticRefunds[r.Provider]:
			note = "refund queued"
		default:
			note = "refund by hand"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", r.CreatedAt.Format(time.RFC3339), r.OrderID, r.InvoiceID, r.Provider,
			r.Amount.Amount, r.Amount.Currency, r.Reason, refunded, note)
	}
	return w.Flush()
}
