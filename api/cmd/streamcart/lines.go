package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"text/tabwriter"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/config"
	"github.com/streamcart/streamcart/api/linedrift"
)

// linesCommand runs `lines reconcile [--dry-run]` with the shop's settings (its panel among
// them): one reconciliation, then what it found and did.
func linesCommand(ctx context.Context, args []string, out io.Writer) error {
	if len(args) < 2 || args[1] != "reconcile" {
		return fmt.Errorf("lines: want reconcile [--dry-run]\n%s", usage)
	}
	s := config.New("lines reconcile")
	dry := s.Flags().Bool("dry-run", false, "report the drift only: change nothing on the panel, record nothing")
	cfg, err := shopConfig(s, args[2:])
	if err != nil {
		return err
	}
	cfg.ReconcileEvery = 0 // this process runs it once, not on a schedule
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	a, err := app.Open(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer a.Close()
	rep, err := a.ReconcileLines(ctx, *dry)
	if errors.Is(err, linedrift.ErrRunning) {
		return errors.New("lines reconcile: another reconciliation is running (a shop's periodic one, or another command); nothing done, try again in a moment")
	}
	if perr := printReconcile(out, rep); perr != nil {
		return errors.Join(err, perr)
	}
	return err
}

// printReconcile writes a run's drifts, one a line, then a summary.
func printReconcile(out io.Writer, rep linedrift.Report) error {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	if len(rep.Drifts) > 0 {
		fmt.Fprintln(w, "SERVICE\tUSERNAME\tDRIFT\tPANEL HAD\tSHOP HAS\tDONE")
	}
	repaired, listed, failed := 0, 0, 0
	for _, d := range rep.Drifts {
		done := d.Action
		switch d.Action {
		case linedrift.ActionListed:
			listed++
		case linedrift.ActionFailed:
			failed++
			done += ": " + d.Error
		case linedrift.ActionNone:
			if d.Kind == linedrift.KindUnexplained {
				listed++
			}
		default:
			repaired++
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", or(printable(d.ServiceID), "-"), printable(d.Username), d.Kind,
			printable(d.Found), printable(d.Want), printable(done))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	what := fmt.Sprintf("%d repaired, %d failed", repaired, failed)
	if rep.DryRun {
		what = fmt.Sprintf("dry run: %d to repair, nothing changed", len(rep.Drifts)-listed)
	}
	_, err := fmt.Fprintf(out, "%d lines checked; %s; %d panel lines no order explains (listed, never deleted)\n", rep.Checked, what, listed)
	return err
}
