package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/store"
)

// storefrontCommand runs `storefront list`: the storefronts of a catalog file, or of the catalog
// the shop's database serves.
func storefrontCommand(ctx context.Context, args []string) error {
	if len(args) < 2 || args[1] != "list" {
		return fmt.Errorf("storefront: want list\n%s", usage)
	}
	s, cfg := readOnlySettings("storefront list")
	file := s.Flags().String("catalog", "", "list a catalog file's storefronts instead of the shop's")
	if err := s.Parse(args[2:], os.Stdout); err != nil {
		return err
	}
	var c *catalog.Catalog
	var err error
	if *file != "" {
		c, err = catalog.Load(*file)
	} else {
		var st store.Backend
		if st, err = openExisting(ctx, cfg.DB); err != nil {
			return err
		}
		defer st.Close()
		c, err = app.StoredCatalog(ctx, st)
	}
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	defer w.Flush()
	fmt.Fprintln(w, "KEY\tNAME\tDEFAULT\tALLOWED ORIGINS\tPLANS\tAFFILIATE")
	for _, s := range c.Storefronts {
		origins := strings.Join(s.AllowedOrigins, ",")
		if s.Default && origins == "" {
			origins = "(same origin)"
		}
		plans := make([]string, len(s.Plans))
		for i, p := range s.Plans {
			plans[i] = strconv.Itoa(p)
		}
		fmt.Fprintf(w, "%s\t%s\t%t\t%s\t%s\t%s\n", printable(s.Key), printable(s.Name), s.Default, printable(or(origins, "-")), or(strings.Join(plans, ","), "all"), printable(or(s.AffiliateID, "-")))
	}
	return nil
}

func or(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}
