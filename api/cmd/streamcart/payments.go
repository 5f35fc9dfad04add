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

// paymentsCommand runs `payments review`: the payments to review (money that arrived but could
// not settle its order), the same rows as the console's list; --state refunded or accepted lists
// those decided, all every one.
func paymentsCommand(ctx context.Context, args []string) error {
	if len(args) < 2 || args[1] != "review" {
		return fmt.Errorf("payments: want review\n%s", usage)
	}
	s, cfg := readOnlySettings("payments review")
	limit := s.Flags().Int("limit", 100, "how many payments at most, newest first")
	state := s.Flags().String("state", order.ReviewOpen, "review, refunded, accepted or all")
	if err := s.Parse(args[2:], os.Stdout); err != nil {
		return err
	}
	switch *state {
	case order.ReviewOpen, order.ReviewRefunded, order.ReviewAccepted:
	case "all":
		*state = ""
	default:
		return fmt.Errorf("payments review: --state %q: want review, refunded, accepted or all", *state)
	}
	st, err := openExisting(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	reviews, err := st.ReviewsIn(ctx, *state, *limit)
	if err != nil {
		return err
	}
	return printReviews(os.Stdout, reviews)
}

// automaticRefunds are the gateways that refund a payment to review through their API
// (order.Refunder): the others' payments are refunded by hand, with a reference.
var automaticRefunds = map[string]bool{"sandbox": true, "stripe": true}

// printReviews writes one line per payment to review; NOTE says what the refund is (its id or
// reference), what went wrong, or what the owner still has to do.
func printReviews(out io.Writer, reviews []order.Review) error {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "AT\tID\tORDER\tINVOICE\tPROVIDER\tAMOUNT (MINOR UNITS)\tCURRENCY\tEXPECTED\tREASON\tSTATE\tREFUNDED\tNOTE")
	for _, r := range reviews {
		refunded, note := "no", r.RefundError
		switch {
		case r.Refunded():
			refunded, note = "yes", r.RefundID
			if note == "" {
				note = "by hand: " + r.Reference
			}
		case r.State == order.ReviewAccepted:
			note = "accepted by " + r.DecidedBy
		case note != "":
		case automaticRefunds[r.Provider]:
			note = "refund or accept in the console"
		default:
			note = "refund by hand (with its reference) or accept in the console"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%d\t%s\t%d %s\t%s\t%s\t%s\t%s\n", r.CreatedAt.Format(time.RFC3339), r.ID, r.OrderID,
			r.InvoiceID, r.Provider, r.Amount.Amount, r.Amount.Currency, r.Expected.Amount, r.Expected.Currency, r.Reason, r.State,
			refunded, note)
	}
	return w.Flush()
}
