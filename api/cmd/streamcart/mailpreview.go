package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/web"
)

const mailPreviewUsage = "mail preview KIND [--locale LOCALE] [--raw]: KIND is one of %s; LOCALE one of %s"

// mailPreview runs `mail preview KIND --locale de-de`: it prints the message KIND rendered from
// sample data, its text and HTML parts, or with --raw the whole MIME message as delivery sends it.
// It reads no database: a template can be checked before the shop runs.
func mailPreview(args []string, out io.Writer) error {
	kinds := make([]string, len(mail.Kinds))
	for i, k := range mail.Kinds {
		kinds[i] = string(k)
	}
	help := fmt.Sprintf(mailPreviewUsage, strings.Join(kinds, ", "), strings.Join(mail.Locales, ", "))
	fs := flag.NewFlagSet("mail preview", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() { fmt.Fprintln(out, "Usage: streamcart "+help); fs.PrintDefaults() }
	locale := fs.String("locale", "en", "language of the message")
	store := fs.String("store-name", envOr("STREAMCART_STORE_NAME", "Streamcart"), "shop name (STREAMCART_STORE_NAME)")
	base := fs.String("public-url", envOr("STREAMCART_PUBLIC_URL", "https://shop.example"), "origin of the links (STREAMCART_PUBLIC_URL)")
	raw := fs.Bool("raw", false, "print the whole MIME message (headers, both parts encoded) instead")
	// KIND may come before or after the flags.
	var pos []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil
			}
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		pos, rest = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
	if len(pos) != 1 {
		return errors.New(help)
	}
	kind, err := mail.ParseKind(pos[0])
	if err != nil {
		return err
	}
	l := strings.ToLower(*locale)
	if !slices.Contains(mail.Locales, l) {
		return fmt.Errorf("mail preview: no locale %q (one of %s)", *locale, strings.Join(mail.Locales, ", "))
	}
	r, err := mail.Render(kind, l, sampleData(kind, l, strings.TrimRight(*base, "/"), *store))
	if err != nil {
		return err
	}
	if *raw {
		at := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
		b, err := mail.Format("shop@shop.example", mail.Stored{ID: 1, Message: r.Message("buyer@example.com"), CreatedAt: at})
		if err != nil {
			return err
		}
		_, err = out.Write(b)
		return err
	}
	_, err = fmt.Fprintf(out, "Subject: %s\nLocale: %s\n\n--- text/plain ---\n%s\n--- text/html ---\n%s", r.Subject, l, r.Text, r.HTML)
	return err
}

// sampleData is a made-up order and link, shaped as the shop's own.
func sampleData(kind mail.Kind, locale, base, store string) mail.Data {
	d := mail.Data{Store: store, OrderID: "ord_7QxS4mPz", Total: mail.FormatMoney(1299, "EUR", locale), Minutes: 15}
	prefix := ""
	if slices.Contains(web.Prefixes, locale) {
		prefix = locale + "/"
	}
	switch kind {
	case mail.KindSigninLink:
		d.Link = base + "/checkout/" + prefix + "?signin=sample-token"
	case mail.KindOrderReceived:
		d.Link = base + "/checkout/" + prefix + "waiting?order=" + url.QueryEscape(d.OrderID)
	default:
		d.Link = base + "/checkout/" + prefix + "success?order=" + url.QueryEscape(d.OrderID)
	}
	return d
}
