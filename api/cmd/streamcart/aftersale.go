package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/streamcart/streamcart/api/affiliate"
	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/money"
)

// afterSaleCommand runs `mail list|show ID`, `audit list` and `affiliates report`.
func afterSaleCommand(ctx context.Context, args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("%s: missing subcommand\n%s", args[0], usage)
	}
	name := args[0] + " " + args[1]
	s, cfg := readOnlySettings(name)
	fs := s.Flags()
	since := fs.String("since", "", "only what happened from this day on (YYYY-MM-DD, UTC)")
	service := fs.String("service", "", "only this service's actions")
	limit := fs.Int("limit", 50, "how many rows at most")
	if err := s.Parse(args[2:], os.Stdout); err != nil {
		return err
	}
	pos := s.Args()
	st, err := openExisting(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	defer w.Flush()
	switch name {
	case "mail list":
		msgs, err := mail.NewOutbox(st, nil, nil).List(ctx, *limit)
		if err != nil {
			return err
		}
		fmt.Fprintln(w, "ID\tCREATED\tSTATUS\tTO\tSUBJECT")
		for _, m := range msgs {
			fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\n", m.ID, m.CreatedAt.Format(time.RFC3339), printable(m.Status), printable(m.To), printable(m.Subject))
		}
		return nil
	case "mail show":
		if len(pos) != 1 {
			return errors.New("mail show: want one message ID")
		}
		id, err := strconv.ParseInt(pos[0], 10, 64)
		if err != nil {
			return fmt.Errorf("mail show: bad ID %q", pos[0])
		}
		m, err := mail.NewOutbox(st, nil, nil).Get(ctx, id)
		if err != nil {
			return fmt.Errorf("mail show %d: %w", id, err)
		}
		fmt.Fprintf(w, "To: %s\nSubject: %s\nDate: %s\nStatus: %s\n\n%s", printable(m.To), printable(m.Subject), m.CreatedAt.Format(time.RFC1123Z), printable(m.Status), printableText(m.Body))
		return nil
	case "audit list":
		entries, err := audit.New(st, nil, nil).List(ctx, *service, *limit)
		if err != nil {
			return err
		}
		fmt.Fprintln(w, "AT\tCLIENT\tSESSION\tACTION\tSERVICE\tRESULT\tDETAIL")
		for _, e := range entries {
			fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%s\t%s\t%s\n", e.At.Format(time.RFC3339), e.ClientID, printable(e.SessionID), printable(e.Action), printable(e.Target), printable(e.Result), printable(e.Detail))
		}
		return nil
	case "affiliates report":
		var from time.Time
		if *since != "" {
			if from, err = time.Parse(time.DateOnly, *since); err != nil {
				return fmt.Errorf("affiliates report: --since wants YYYY-MM-DD, got %q", *since)
			}
		}
		rows, err := affiliate.New(st, nil).Report(ctx, from)
		if err != nil {
			return err
		}
		for i := range rows {
			rows[i].AffID = printable(rows[i].AffID)
		}
		return affiliate.Print(w, rows, money.Format)
	}
	return fmt.Errorf("unknown command %q\n%s", name, usage)
}
