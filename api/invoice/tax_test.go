package invoice

import (
	"bytes"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/refund"
)

// A taxed order's invoice shows its net, the VAT line with rate and country, and the total; its
// credit note gives back the tax in proportion.
func TestTaxedInvoicePDF(t *testing.T) {
	o, cat := paidOrder()
	eur := func(a int64) money.Money { return money.Money{Amount: a, Currency: "EUR"} }
	// 54.89 with 19% included: 46.13 net, 8.76 VAT (pricing's rule).
	o.Quote.Net = eur(4613)
	o.Quote.Tax = &pricing.Tax{Country: "DE", Rate: "19", Amount: 876, Currency: "EUR", Included: true, IPCountry: "DE"}
	o.BillingCountry, o.IPCountry = "DE", "DE"
	d := ForInvoice(o, cat, "FR")
	if d.Net != eur(4613) || d.Total != eur(5489) || d.Tax == nil || d.Tax.Amount != eur(876) || d.BuyerCountry != "DE" {
		t.Fatalf("document: net %v total %v tax %+v country %s", d.Net, d.Total, d.Tax, d.BuyerCountry)
	}
	pdf, err := render(d, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Netto", money.FormatLocale(4613, "EUR", "de-de"), "MwSt. 19% (DE)",
		money.FormatLocale(876, "EUR", "de-de"), "Gesamt", money.FormatLocale(5489, "EUR", "de-de"), "Land: DE"} {
		if !bytes.Contains(pdf, pdfString(want)) {
			t.Errorf("invoice does not show %q", want)
		}
	}

	// Half refunded: 27.44 of which 4.38 VAT (refund.CreditNote as the store issues it).
	c := refund.CreditNote{ID: "cn_1", Number: "CN-2026-000004", Amount: eur(2744), Tax: eur(438), Net: eur(2306),
		CreatedAt: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)}
	o.Locale = "en"
	cd := ForCreditNote(o, c, cat, "")
	if cd.Net != eur(2306) || cd.Total != eur(2744) || cd.Tax == nil || cd.Tax.Amount != eur(438) {
		t.Fatalf("credit note: net %v total %v tax %+v", cd.Net, cd.Total, cd.Tax)
	}
	if d.Tax.Amount != eur(876) {
		t.Error("the credit note changed the invoice's tax")
	}
	pdf, err = render(cd, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Credit note", "Net", money.FormatLocale(2306, "EUR", "en"), "VAT 19% (DE)",
		money.FormatLocale(438, "EUR", "en"), money.FormatLocale(2744, "EUR", "en")} {
		if !bytes.Contains(pdf, pdfString(want)) {
			t.Errorf("credit note does not show %q", want)
		}
	}
}
