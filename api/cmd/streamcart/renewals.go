package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/streamcart/streamcart/api/renewal"
	"github.com/streamcart/streamcart/api/testclock"
)

// renewalsCommand runs `renewals list [--due-within 14d]`: the services that renew, soonest due
// first, with their client, status and open renewal invoice. "Due within" counts from the shops'
// business time (the test clock included).
func renewalsCommand(ctx context.Context, args []string, out io.Writer) error {
	if len(args) < 2 || args[1] != "list" {
		return fmt.Errorf("renewals: want list\n%s", usage)
	}
	s, cfg := readOnlySettings("renewals list")
	within := s.Flags().String("due-within", "", "only the services due within this span of shop time, such as 14d or 36h; empty: all")
	if err := s.Parse(args[2:], out); err != nil {
		return err
	}
	var span time.Duration
	if *within != "" {
		d, err := parseRetention(*within)
		if err != nil {
			return fmt.Errorf("renewals list --due-within %w", err)
		}
		span = d
	}
	st, err := openExisting(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	var before time.Time
	if span > 0 {
		offset, err := testclock.Offset(ctx, st)
		if err != nil {
			return err
		}
		before = time.Now().Add(offset).Add(span)
	}
	list, err := st.RenewalListing(ctx, before)
	if err != nil {
		return err
	}
	return printRenewals(out, list)
}

// printRenewals writes one line per service; AUTO-RENEW is "card" for a line whose renewals are
// charged to a saved card, "yes" for one renewed by invoice, "no" once the buyer cancelled it (the
// service ends at its due date).
func printRenewals(out io.Writer, list []renewal.Listed) error {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "SERVICE\tCLIENT\tDUE\tSTATUS\tOPEN INVOICE\tAUTO-RENEW")
	for _, l := range list {
		invoice := l.OpenInvoice
		if invoice == "" {
			invoice = "-"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", printable(l.ServiceID), printable(l.Email), l.Due.UTC().Format(time.RFC3339),
			printable(string(l.Status)), printable(invoice), autoRenew(l))
	}
	return w.Flush()
}

// autoRenew is the AUTO-RENEW cell of a line.
func autoRenew(l renewal.Listed) string {
	switch {
	case !l.AutoRenew:
		return "no"
	case l.SavedCard:
		return "card"
	}
	return "yes"
}
