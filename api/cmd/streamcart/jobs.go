package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/streamcart/streamcart/api/config"
	"github.com/streamcart/streamcart/api/store"
)

const jobsUsage = `Usage:
  streamcart jobs list [--state S] [--kind K] [--limit N]  jobs, newest first, with their last error
  streamcart jobs retry ID    a dead, failed or cancelled job queued again, attempts reset, run now
  streamcart jobs cancel ID   a queued or dead job cancelled (a running one is refused)
Each takes --db (STREAMCART_DB); "streamcart jobs list -h" lists list's flags.
`

// jobStates are the states `jobs list --state` accepts.
var jobStates = []string{store.JobQueued, store.JobRunning, store.JobDone, store.JobDead, store.JobCancelled}

// jobsCommand runs `jobs list [--state S] [--kind K] [--limit N]`, `jobs retry ID` and
// `jobs cancel ID` on an existing database.
func jobsCommand(ctx context.Context, args []string, out io.Writer) error {
	if len(args) < 2 {
		return fmt.Errorf("jobs: want list, retry ID or cancel ID\n%s", usage)
	}
	switch args[1] {
	case "-h", "--help", "help":
		fmt.Fprint(out, jobsUsage)
		return nil
	}
	name := "jobs " + args[1]
	set, cfg := readOnlySettings(name)
	fs := set.Flags()
	var f store.JobFilter
	if args[1] == "list" {
		fs.StringVar(&f.State, "state", "", "only jobs in this state: "+strings.Join(jobStates, ", "))
		fs.StringVar(&f.Kind, "kind", "", "only jobs of this kind (provision, mail, webhook, expire, refund, reconcile, prune)")
		fs.IntVar(&f.Limit, "limit", 50, "how many jobs at most, newest first")
	}
	if err := set.Parse(args[2:], out); err != nil {
		return err
	}
	pos := set.Args()
	var id int64
	switch args[1] {
	case "list":
		if len(pos) != 0 {
			return fmt.Errorf("jobs list: unexpected argument %q", pos[0])
		}
		if f.State != "" && !slices.Contains(jobStates, f.State) {
			return fmt.Errorf("jobs list: --state %q: want one of %s", f.State, strings.Join(jobStates, ", "))
		}
		if f.Limit <= 0 {
			return fmt.Errorf("jobs list: --limit %d: want a positive number", f.Limit)
		}
	case "retry", "cancel":
		if len(pos) != 1 {
			return fmt.Errorf("%s: want one job ID", name)
		}
		n, err := strconv.ParseInt(pos[0], 10, 64)
		if err != nil || n <= 0 {
			return fmt.Errorf("%s: bad job ID %q", name, pos[0])
		}
		id = n
	default:
		return fmt.Errorf("jobs: unknown subcommand %q\n%s", args[1], usage)
	}
	st, err := openExisting(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	switch args[1] {
	case "list":
		jobs, err := st.ListJobs(ctx, f)
		if err != nil {
			return err
		}
		return printJobs(out, jobs)
	case "retry":
		j, err := st.RequeueJob(ctx, id)
		if err != nil {
			return jobOpError(name, id, j, err)
		}
		fmt.Fprintf(out, "job %d (%s %s) queued to run now, its attempts reset\n", j.ID, printable(j.Kind), printable(j.Ref))
		return nil
	default:
		j, err := st.CancelJob(ctx, id)
		if err != nil {
			return jobOpError(name, id, j, err)
		}
		fmt.Fprintf(out, "job %d (%s %s) cancelled\n", j.ID, printable(j.Kind), printable(j.Ref))
		return nil
	}
}

// jobOpError says why retry or cancel left job id as it was.
func jobOpError(name string, id int64, j store.JobInfo, err error) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return fmt.Errorf("%s: no job %d", name, id)
	case !errors.Is(err, store.ErrJobState):
		return fmt.Errorf("%s: %w", name, err)
	case j.State == store.JobRunning:
		return fmt.Errorf("%s: job %d is running: a worker holds it and its handler may be half-way; wait until it is done, queued again or dead (streamcart jobs list), then %s it",
			name, id, strings.TrimPrefix(name, "jobs "))
	case j.State == store.JobDone:
		return fmt.Errorf("%s: job %d is done: nothing to %s", name, id, strings.TrimPrefix(name, "jobs "))
	}
	return fmt.Errorf("%s: job %d is %s already", name, id, printable(j.State))
}

// printJobs writes one line per job; stored text (refs, errors) goes through printable, and only
// the first line of an error (a panic's carries its stack) is shown.
func printJobs(out io.Writer, jobs []store.JobInfo) error {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tKIND\tREF\tSTATE\tATTEMPTS\tRUN AT\tLAST ERROR")
	for _, j := range jobs {
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%d\t%s\t%s\n", j.ID, printable(j.Kind), printable(j.Ref), printable(j.State), j.Attempts,
			j.RunAt.Format(time.RFC3339), printable(firstLine(j.LastError, 200)))
	}
	return w.Flush()
}

// firstLine is s's first line, cut to max bytes on a rune boundary; "…" marks a cut.
func firstLine(s string, max int) string {
	line, _, more := strings.Cut(s, "\n")
	if len(line) > max {
		for max > 0 && !utf8.RuneStart(line[max]) {
			max--
		}
		line, more = line[:max], true
	}
	if more {
		line += " …"
	}
	return line
}

// retentionSettings declares how long the daily prune keeps each kind of row (docs/operations.md#retention).
func retentionSettings(s *config.Set, r *store.Retention) {
	settings := []struct {
		name string
		dst  *time.Duration
		def  time.Duration
		what string
	}{
		{"idempotency", &r.Idempotency, store.DefaultRetention.Idempotency, "an order's Idempotency-Key after the order"},
		{"expired-sessions", &r.Expired, store.DefaultRetention.Expired, "sessions and sign-in links past their expiry"},
		{"clicks", &r.Clicks, store.DefaultRetention.Clicks, "affiliate clicks"},
		{"sent-mail", &r.SentMail, store.DefaultRetention.SentMail, "mail after it was sent (unsent mail is kept)"},
		{"finished-jobs", &r.FinishedJobs, store.DefaultRetention.FinishedJobs, "done and cancelled jobs (dead ones are kept)"},
	}
	for _, st := range settings {
		*st.dst = st.def
		s.Func("retain-"+st.name, formatRetention(st.def), "a positive number of days such as 7d, or a duration such as 36h",
			"how long the daily prune keeps "+st.what, func(v string) error {
				d, err := parseRetention(v)
				if err == nil {
					*st.dst = d
				}
				return err
			})
	}
}

// parseRetention reads a positive span, a retention or a test clock advance: whole days ("7d")
// or a Go duration ("36h", "90m").
func parseRetention(s string) (time.Duration, error) {
	var d time.Duration
	var err error
	if days, ok := strings.CutSuffix(s, "d"); ok {
		var n int64
		n, err = strconv.ParseInt(days, 10, 64)
		d = time.Duration(n) * 24 * time.Hour
		if err == nil && n > 100*365 {
			err = errors.New("too long")
		}
	} else {
		d, err = time.ParseDuration(s)
	}
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q: want a positive number of days (7d) or a duration (36h)", s)
	}
	return d, nil
}

// formatRetention writes whole days as "7d", anything else as a Go duration.
func formatRetention(d time.Duration) string {
	if day := 24 * time.Hour; d%day == 0 {
		return strconv.FormatInt(int64(d/day), 10) + "d"
	}
	return d.String()
}
