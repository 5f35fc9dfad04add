package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/testclock"
)

const panelUsage = `Usage (the built-in panel, by hand: drift for streamcart lines reconcile to find):
  streamcart panel list                          its lines: username, service, on/off, expiry, connections, MAC
  streamcart panel delete USERNAME               delete a line
  streamcart panel disable USERNAME              switch a line off
  streamcart panel enable USERNAME               switch a line on
  streamcart panel set-expiry USERNAME YYYY-MM-DD  the line expires at the start of that day (UTC)
  streamcart panel set-connections USERNAME N    how many streams the line plays at once
  streamcart panel credits [N]                   its reseller credit balance; with N, set it
Each takes --db (STREAMCART_DB).
`

// panelCommand runs the built-in panel's subcommands on an existing database: what an operator
// of a real panel does in its screens, to try the shop's reconciliation and credit checks by hand.
func panelCommand(ctx context.Context, args []string, out io.Writer) error {
	if len(args) < 2 {
		return fmt.Errorf("panel: want a subcommand\n%s", panelUsage)
	}
	sub := args[1]
	want := map[string]int{"list": 0, "delete": 1, "disable": 1, "enable": 1, "set-expiry": 2, "set-connections": 2}
	switch sub {
	case "-h", "--help", "help":
		fmt.Fprint(out, panelUsage)
		return nil
	case "credits":
	default:
		if _, ok := want[sub]; !ok {
			return fmt.Errorf("panel: unknown subcommand %q\n%s", sub, panelUsage)
		}
	}
	set, cfg := readOnlySettings("panel " + sub)
	// The arguments may come before the flags (panel disable sc123 --db x.db).
	rest := args[2:]
	var pos []string
	for len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		pos, rest = append(pos, rest[0]), rest[1:]
	}
	if err := set.Parse(rest, out); err != nil {
		return err
	}
	pos = append(pos, set.Args()...)
	if sub == "credits" {
		if len(pos) > 1 {
			return fmt.Errorf("panel credits: want no argument or one number\n%s", panelUsage)
		}
	} else if len(pos) != want[sub] {
		return fmt.Errorf("panel %s: want %d argument(s), got %d\n%s", sub, want[sub], len(pos), panelUsage)
	}
	// Arguments are checked before the database is opened: a typo changes nothing.
	var day time.Time
	var n int64
	switch sub {
	case "set-expiry":
		d, err := time.Parse(time.DateOnly, pos[1])
		if err != nil {
			return fmt.Errorf("panel set-expiry: %q: want a date YYYY-MM-DD", pos[1])
		}
		day = d.UTC()
	case "set-connections":
		v, err := strconv.ParseInt(pos[1], 10, 32)
		if err != nil || v < 1 {
			return fmt.Errorf("panel set-connections: %q: want a whole number, 1 or more", pos[1])
		}
		n = v
	case "credits":
		if len(pos) == 1 {
			v, err := strconv.ParseInt(pos[0], 10, 64)
			if err != nil || v < 0 {
				return fmt.Errorf("panel credits: %q: want a whole number, 0 or more", pos[0])
			}
			n = v
		}
	}
	st, err := openExisting(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	offset, err := testclock.Offset(ctx, st)
	if err != nil {
		return err
	}
	b := panel.NewBuiltin(st, "", func() time.Time { return time.Now().Add(offset) })
	switch sub {
	case "list":
		lines, err := b.Lines(ctx)
		if err != nil {
			return err
		}
		return printPanelLines(out, lines)
	case "credits":
		if len(pos) == 1 {
			if err := b.SetCredits(ctx, n); err != nil {
				return err
			}
			fmt.Fprintf(out, "built-in panel credits set to %d; running shops read the balance within a minute\n", n)
			return nil
		}
		c, err := b.Credits(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s\n", strconv.FormatFloat(c, 'f', -1, 64))
		return nil
	}
	l, err := b.LineByUsername(ctx, pos[0])
	if errors.Is(err, panel.ErrNotFound) {
		return fmt.Errorf("panel %s: no line %s on the built-in panel (streamcart panel list)", sub, printable(pos[0]))
	}
	if err != nil {
		return err
	}
	user := printable(l.Username)
	switch sub {
	case "delete":
		err = b.Delete(ctx, l.Ref)
		if err == nil {
			fmt.Fprintf(out, "line %s deleted\n", user)
		}
	case "disable", "enable":
		err = b.SetEnabled(ctx, l.Ref, sub == "enable")
		if err == nil {
			fmt.Fprintf(out, "line %s %sd\n", user, sub)
		}
	case "set-expiry":
		err = b.Extend(ctx, l.Ref, day)
		if err == nil {
			fmt.Fprintf(out, "line %s expires %s\n", user, day.Format(time.RFC3339))
		}
	case "set-connections":
		err = b.SetMaxConnections(ctx, l.Ref, int(n))
		if err == nil {
			fmt.Fprintf(out, "line %s plays %d connection(s)\n", user, n)
		}
	}
	return err
}

// printPanelLines writes one line per panel line.
func printPanelLines(out io.Writer, lines []panel.Line) error {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "USERNAME\tSERVICE\tENABLED\tEXPIRES\tCONNECTIONS\tMAC\tTRIAL")
	for _, l := range lines {
		exp := "never"
		if !l.ExpiresAt.IsZero() {
			exp = l.ExpiresAt.UTC().Format(time.RFC3339)
		}
		mac := l.MAC
		if mac == "" {
			mac = "-"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", printable(l.Username), printable(l.Ref), yesNo(l.Enabled), exp,
			l.MaxConnections, printable(mac), yesNo(l.Trial))
	}
	return w.Flush()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
