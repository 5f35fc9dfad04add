package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/testclock"
)

// clockCommand runs `clock advance DURATION`, `clock show` and `clock reset`: the test clock,
// an offset stored in the database that every shop on it adds to its business time within one
// catalog poll (app.RefreshClock). advance also reads the payment settings, and is refused where
// real money moves (payment.CheckTestClock).
func clockCommand(ctx context.Context, args []string, out io.Writer) error {
	if len(args) < 2 || (args[1] != "advance" && args[1] != "show" && args[1] != "reset") {
		return fmt.Errorf("clock: want advance DURATION, show or reset\n%s", usage)
	}
	sub := args[1]
	s, cfg := readOnlySettings("clock " + sub)
	if sub == "advance" {
		paymentSettings(s, cfg)
	}
	if err := s.Parse(args[2:], out); err != nil {
		return err
	}
	var by time.Duration
	switch rest := s.Args(); {
	case sub == "advance" && len(rest) != 1:
		return fmt.Errorf("clock advance: want one DURATION, such as 26d or 36h")
	case sub == "advance":
		d, err := parseRetention(rest[0])
		if err != nil {
			return fmt.Errorf("clock advance %w", err)
		}
		by = d
	case len(rest) > 0:
		return fmt.Errorf("clock %s: unexpected argument %q", sub, rest[0])
	}
	st, err := openExisting(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	follow := fmt.Sprintf("running shops follow within their catalog poll interval (STREAMCART_CATALOG_POLL, default %s)", app.DefaultCatalogPoll)
	switch sub {
	case "advance":
		offset, err := testclock.Advance(ctx, cfg.Payment, st, by)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "test clock advanced by %s, now %s ahead of real time: shop time %s; %s\n",
			formatSpan(by), formatSpan(offset), time.Now().Add(offset).UTC().Format(time.RFC3339), follow)
		return nil
	case "reset":
		if err := testclock.Reset(ctx, st); err != nil {
			return err
		}
		fmt.Fprintf(out, "test clock reset: shops are back on real time; %s\n", follow)
		return nil
	}
	offset, err := testclock.Offset(ctx, st)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "offset\t%s\n", formatSpan(offset))
	fmt.Fprintf(w, "shop time\t%s\n", now.Add(offset).Format(time.RFC3339))
	fmt.Fprintf(w, "real time\t%s\n", now.Format(time.RFC3339))
	return w.Flush()
}

// formatSpan writes a test clock span in days and the rest: 26d, 27d12h, 90m as 1h30m, 0s.
func formatSpan(d time.Duration) string {
	day := 24 * time.Hour
	out := ""
	if d >= day {
		out, d = strconv.FormatInt(int64(d/day), 10)+"d", d%day
	}
	if d > 0 || out == "" {
		rest := d.String()
		if strings.HasSuffix(rest, "m0s") {
			rest = strings.TrimSuffix(rest, "0s")
		}
		if strings.HasSuffix(rest, "h0m") {
			rest = strings.TrimSuffix(rest, "0m")
		}
		out += rest
	}
	return out
}
