package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/streamcart/streamcart/api/tax"
)

// taxCommand runs `tax report`: the tax of a period per country and rate (package tax), as a
// table or CSV.
func taxCommand(ctx context.Context, args []string, out io.Writer) error {
	if len(args) < 2 || args[1] != "report" {
		return fmt.Errorf("tax: want report --from YYYY-MM-DD --to YYYY-MM-DD [--csv]\n%s", usage)
	}
	s, cfg := readOnlySettings("tax report")
	from := s.Flags().String("from", "", "first day (YYYY-MM-DD, UTC), included")
	to := s.Flags().String("to", "", "last day (YYYY-MM-DD, UTC), included")
	asCSV := s.Flags().Bool("csv", false, "write CSV instead of a table")
	if err := s.Parse(args[2:], out); err != nil {
		return err
	}
	if *from == "" || *to == "" {
		return errors.New("tax report: --from and --to are required (YYYY-MM-DD)")
	}
	st, err := openExisting(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	rep, err := tax.Build(ctx, st, *from, *to)
	if err != nil {
		return err
	}
	if *asCSV {
		return rep.WriteCSV(out)
	}
	return rep.WriteText(out)
}
