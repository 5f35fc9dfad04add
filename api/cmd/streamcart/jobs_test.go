package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/config"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// jobsDB is a shop database with a dead job (its error forged with a terminal escape and a line
// break), a running one, a queued one and a done one; it answers the ids by ref.
func jobsDB(t *testing.T, db string) map[string]int64 {
	t.Helper()
	st, err := store.OpenURL(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx, now := t.Context(), time.Now()
	for _, ref := range []string{"ord_dead", "ord_running", "ord_done"} {
		if err := st.Enqueue(ctx, "provision", ref, "provision:"+ref, now.Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Enqueue(ctx, "mail", "7", "mail:7", now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	for range 3 {
		j, ok, err := st.ClaimJob(ctx, now, now, time.Hour)
		if err != nil || !ok {
			t.Fatalf("claim: %v %v", ok, err)
		}
		ids[j.Ref] = j.ID
	}
	if err := st.BuryJob(ctx, ids["ord_dead"], "gave up after 108 attempts: panel \x1b[2Jsays no\nsecond line"); err != nil {
		t.Fatal(err)
	}
	if err := st.CompleteJob(ctx, ids["ord_done"]); err != nil {
		t.Fatal(err)
	}
	j, err := storetest.Inspect(st).JobByKey(ctx, "mail:7")
	if err != nil {
		t.Fatal(err)
	}
	ids["7"] = j.ID
	return ids
}

func jobs(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := jobsCommand(t.Context(), append([]string{"jobs"}, args...), &out)
	return out.String(), err
}

func TestJobsCommand(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		db := b.NewDB(t)
		ids := jobsDB(t, db)
		id := func(ref string) string { return strconv.FormatInt(ids[ref], 10) }

		out, err := jobs(t, "list", "--state", "dead", "--db", db)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[0], "LAST ERROR") {
			t.Fatalf("jobs list --state dead:\n%s", out)
		}
		for _, want := range []string{id("ord_dead"), "provision", "ord_dead", "dead", "108", `panel \x1b[2Jsays no …`} {
			if !strings.Contains(lines[1], want) {
				t.Errorf("dead job line %q lacks %q", lines[1], want)
			}
		}
		if strings.Contains(out, "\x1b") || strings.Contains(out, "second line") {
			t.Fatalf("list shows the raw error:\n%q", out)
		}
		filters := []struct {
			args []string
			refs []string
		}{
			{nil, []string{"7", "ord_done", "ord_running", "ord_dead"}},
			{[]string{"--kind", "provision", "--limit", "2"}, []string{"ord_done", "ord_running"}},
			{[]string{"--state", "queued"}, []string{"7"}},
			{[]string{"--kind", "mail", "--state", "dead"}, nil},
		}
		for _, f := range filters {
			out, err := jobs(t, append([]string{"list", "--db", db}, f.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			rows := strings.Split(strings.TrimSpace(out), "\n")[1:]
			if len(rows) != len(f.refs) {
				t.Fatalf("jobs list %v: %d rows, want %v:\n%s", f.args, len(rows), f.refs, out)
			}
			for i, ref := range f.refs {
				if fields := strings.Fields(rows[i]); fields[0] != id(ref) {
					t.Errorf("jobs list %v row %d = %q, want job %s (%s)", f.args, i, rows[i], id(ref), ref)
				}
			}
		}

		// The running job is refused both ways, with the reason; the done one too.
		for _, op := range []string{"retry", "cancel"} {
			if _, err := jobs(t, op, id("ord_running"), "--db", db); err == nil || !strings.Contains(err.Error(), "is running") {
				t.Errorf("jobs %s of the running job: err = %v, want a refusal naming the state", op, err)
			}
			if _, err := jobs(t, op, id("ord_done"), "--db", db); err == nil || !strings.Contains(err.Error(), "is done") {
				t.Errorf("jobs %s of the done job: err = %v", op, err)
			}
			if _, err := jobs(t, op, "424242", "--db", db); err == nil || !strings.Contains(err.Error(), "no job 424242") {
				t.Errorf("jobs %s of an unknown job: err = %v", op, err)
			}
		}

		out, err = jobs(t, "retry", "--db", db, id("ord_dead"))
		if err != nil || !strings.Contains(out, "queued to run now") {
			t.Fatalf("jobs retry = %q, %v", out, err)
		}
		out, err = jobs(t, "list", "--db", db, "--state", "queued", "--kind", "provision")
		if err != nil || !strings.Contains(out, "ord_dead") || !strings.Contains(out, "  0  ") {
			t.Fatalf("after retry, the job is not queued with 0 attempts:\n%s %v", out, err)
		}
		if out, err = jobs(t, "cancel", id("7"), "--db", db); err != nil || !strings.Contains(out, "cancelled") {
			t.Fatalf("jobs cancel = %q, %v", out, err)
		}
		if _, err := jobs(t, "cancel", id("7"), "--db", db); err == nil || !strings.Contains(err.Error(), "cancelled already") {
			t.Fatalf("jobs cancel twice: err = %v", err)
		}
	})
}

func TestJobsCommandRefusesBadInput(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "typo.db")
	cases := [][]string{
		{"list", "--db", missing},
		{"retry", "1", "--db", missing},
		{"list", "--state", "buried"},
		{"list", "--limit", "0"},
		{"retry"},
		{"retry", "abc"},
		{"cancel", "1", "2"},
		{"purge"},
		{},
	}
	for _, args := range cases {
		if _, err := jobs(t, args...); err == nil {
			t.Errorf("jobs %v: no error", args)
		}
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a mistyped --db created %s: %v", missing, err)
	}
	// config.ErrHelp: run exits 0 after the usage.
	if out, err := jobs(t, "list", "-h"); !errors.Is(err, config.ErrHelp) || !strings.Contains(out, "-state") {
		t.Fatalf("jobs list -h = %q, %v; want its flags and ErrHelp", out, err)
	}
	if out, err := jobs(t, "-h"); err != nil || !strings.Contains(out, "jobs retry ID") {
		t.Fatalf("jobs -h = %q, %v; want the jobs commands and no error", out, err)
	}
	if _, err := jobs(t, "list", "--db", missing); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("jobs list on a missing database: err = %v", err)
	}
}

func TestRetentionSettings(t *testing.T) {
	cases := []struct {
		env     map[string]string
		args    []string
		want    store.Retention
		wantErr string
	}{
		{want: store.Retention{Idempotency: 7 * day, Expired: day, Clicks: 400 * day, SentMail: 90 * day, FinishedJobs: 30 * day}},
		{env: map[string]string{"STREAMCART_RETAIN_CLICKS": "30d", "STREAMCART_RETAIN_EXPIRED_SESSIONS": "36h"}, args: []string{"--retain-sent-mail", "1d"},
			want: store.Retention{Idempotency: 7 * day, Expired: 36 * time.Hour, Clicks: 30 * day, SentMail: day, FinishedJobs: 30 * day}},
		{env: map[string]string{"STREAMCART_RETAIN_IDEMPOTENCY": "7"}, wantErr: `STREAMCART_RETAIN_IDEMPOTENCY="7": want a positive number of days`},
		{env: map[string]string{"STREAMCART_RETAIN_FINISHED_JOBS": "0d"}, wantErr: "STREAMCART_RETAIN_FINISHED_JOBS"},
		{env: map[string]string{"STREAMCART_RETAIN_SENT_MAIL": "-5d"}, wantErr: "STREAMCART_RETAIN_SENT_MAIL"},
		{args: []string{"--retain-clicks", "abc"}, wantErr: "retain-clicks"},
	}
	for _, c := range cases {
		s := config.New("serve")
		s.Lookup = func(key string) (string, bool) { v, ok := c.env[key]; return v, ok }
		var got store.Retention
		retentionSettings(s, &got)
		err := s.Parse(c.args, new(bytes.Buffer))
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%v %v: err = %v, want %q", c.env, c.args, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%v %v = %+v, %v; want %+v", c.env, c.args, got, err, c.want)
		}
	}
}

const day = 24 * time.Hour
