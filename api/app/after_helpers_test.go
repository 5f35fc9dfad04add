package app_test

import (
	"net/url"

	goahttp "goa.design/goa/v3/http"

	genaffiliates "github.com/streamcart/streamcart/gen/affiliates"
	affiliatescli "github.com/streamcart/streamcart/gen/http/affiliates/client"
	invoicescli "github.com/streamcart/streamcart/gen/http/invoices/client"
	resellerscli "github.com/streamcart/streamcart/gen/http/resellers/client"
	upsellcli "github.com/streamcart/streamcart/gen/http/upsell/client"
	geninvoices "github.com/streamcart/streamcart/gen/invoices"
	genresellers "github.com/streamcart/streamcart/gen/resellers"
	genupsell "github.com/streamcart/streamcart/gen/upsell"
)

// afterClients are the generated clients of the after-sale services.
type afterClients struct {
	upsell     *genupsell.Client
	resellers  *genresellers.Client
	affiliates *genaffiliates.Client
	invoices   *geninvoices.Client
}

func newAfterClients(u *url.URL, doer goahttp.Doer) afterClients {
	enc, dec := goahttp.RequestEncoder, goahttp.ResponseDecoder
	uc := upsellcli.NewClient(u.Scheme, u.Host, doer, enc, dec, false)
	rc := resellerscli.NewClient(u.Scheme, u.Host, doer, enc, dec, false)
	ac := affiliatescli.NewClient(u.Scheme, u.Host, doer, enc, dec, false)
	ic := invoicescli.NewClient(u.Scheme, u.Host, doer, enc, dec, false)
	return afterClients{
		upsell:     genupsell.NewClient(uc.Offers(), uc.Quote(), uc.Order()),
		resellers:  genresellers.NewClient(rc.Me(), rc.Order(), rc.GetService()),
		affiliates: genaffiliates.NewClient(ac.Click()),
		invoices:   geninvoices.NewClient(ic.Get(), ic.Pdf(), ic.CreditNotePdf(), ic.Pay()),
	}
}
