package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/streamcart/streamcart/api/operator"
)

const operatorUsage = `Usage:
  streamcart operator add EMAIL --role owner|support|viewer  a console operator, and its one-time setup link (24 h)
  streamcart operator list            operators: email, role, status
  streamcart operator disable EMAIL   the operator can no longer sign in; its sessions end
  streamcart operator reset EMAIL     a new one-time setup link (24 h): password and authenticator set anew; sessions end
Each takes --db (STREAMCART_DB); add and reset also take --public-url (STREAMCART_PUBLIC_URL) for the link.
`

// operatorCommand runs `operator add EMAIL --role R`, `operator list`, `operator disable EMAIL` and
// `operator reset EMAIL`.
func operatorCommand(ctx context.Context, args []string, out io.Writer) error {
	if len(args) < 2 {
		return fmt.Errorf("operator: want add, list, disable or reset\n%s", operatorUsage)
	}
	sub := args[1]
	switch sub {
	case "-h", "--help", "help":
		fmt.Fprint(out, operatorUsage)
		return nil
	case "add", "list", "disable", "reset":
	default:
		return fmt.Errorf("operator: unknown subcommand %q\n%s", sub, operatorUsage)
	}
	set, cfg := readOnlySettings("operator " + sub)
	var role string
	if sub == "add" || sub == "reset" {
		publicURLSetting(set, cfg)
	}
	if sub == "add" {
		set.Flags().StringVar(&role, "role", "", "owner, support or viewer")
	}
	// The email may come before the flags (operator add me@example.com --role owner).
	rest := args[2:]
	var pos []string
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		pos, rest = rest[:1], rest[1:]
	}
	if err := set.Parse(rest, out); err != nil {
		return err
	}
	pos = append(pos, set.Args()...)
	want := 1
	if sub == "list" {
		want = 0
	}
	if len(pos) != want {
		return fmt.Errorf("operator %s: want %d argument(s), got %d\n%s", sub, want, len(pos), operatorUsage)
	}
	var r operator.Role
	if sub == "add" {
		var err error
		if r, err = operator.ParseRole(role); err != nil {
			return fmt.Errorf("operator add: --role %q: want owner, support or viewer", role)
		}
	}
	st, err := openExisting(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	// Setup links are security time: they expire on real time, as the shop checks them
	// (api/app/admin.go), never on the test clock, or a link made after `clock advance 30d`
	// would stay good for 31 days.
	ops := operator.New(st, operator.Config{}, slog.New(slog.DiscardHandler), time.Now)
	switch sub {
	case "add":
		inv, err := ops.Add(ctx, pos[0], r)
		switch {
		case errors.Is(err, operator.ErrExists):
			return fmt.Errorf("operator add: %s is an operator already (streamcart operator list)", printable(pos[0]))
		case errors.Is(err, operator.ErrInvalidEmail):
			return fmt.Errorf("operator add: %q is not an email address", printable(pos[0]))
		case err != nil:
			return err
		}
		fmt.Fprintf(out, "operator %s (%s) added; open this link within 24 hours (until %s) to set a password and an authenticator:\n%s\n",
			inv.Operator.Email, inv.Operator.Role, inv.ExpiresAt.Format(time.RFC3339), inv.Link(cfg.PublicURL))
		return nil
	case "reset":
		inv, err := ops.Reset(ctx, pos[0])
		if errors.Is(err, operator.ErrNotFound) {
			return fmt.Errorf("operator reset: no operator %s (streamcart operator list)", printable(pos[0]))
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "operator %s (%s) reset: it cannot sign in and its sessions ended; open this link within 24 hours (until %s) to set a new password and authenticator:\n%s\n",
			inv.Operator.Email, inv.Operator.Role, inv.ExpiresAt.Format(time.RFC3339), inv.Link(cfg.PublicURL))
		return nil
	case "disable":
		o, err := ops.Disable(ctx, pos[0])
		if errors.Is(err, operator.ErrNotFound) {
			return fmt.Errorf("operator disable: no operator %s", printable(pos[0]))
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "operator %s disabled; its sessions ended\n", o.Email)
		return nil
	}
	list, err := ops.List(ctx)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "EMAIL\tROLE\tSTATUS\tCREATED")
	for _, o := range list {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", printable(o.Email), o.Role, o.Status, o.CreatedAt.Format(time.RFC3339))
	}
	return w.Flush()
}
