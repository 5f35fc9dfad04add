// Package invoice writes the PDF of a paid invoice and of a refund's credit note, in the
// buyer's locale, with an embedded Unicode font (DejaVu Sans: €, ä, ç, ñ render anywhere).
package invoice

import (
	"bytes"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/refund"
)

// DejaVu Sans (Bitstream Vera licence, fonts/LICENSE-DejaVu.txt); fpdf embeds the subset of
// glyphs a document uses.
//
//go:embed fonts/DejaVuSans.ttf
var dejaVuSans []byte

// Line is one billed item.
type Line struct {
	Description string
	Amount      money.Money
}

// Tax is the tax line of a document; none when the order has no tax.
type Tax struct {
	Country string
	Rate    string // percent, "19"
	Amount  money.Money
}

// Document is what a PDF shows.
type Document struct {
	CreditNote   bool
	Number       string
	Refers       string // a credit note: the invoice's number
	Issued       time.Time
	OrderID      string
	OrderDate    time.Time
	Seller       catalog.Seller
	BuyerEmail   string
	BuyerCountry string
	Locale       string
	Lines        []Line
	Discount     *Line
	Net, Total   money.Money
	Tax          *Tax
	PaidWith     string
	PaidAt       time.Time
}

// ForInvoice is the document of o's paid, numbered invoice; country is the buyer's ("" unknown).
func ForInvoice(o order.Order, cat *catalog.Catalog, country string) Document {
	loc := normLocale(o.Locale)
	d := Document{Number: o.Invoice.Number, Issued: o.Invoice.PaidAt, OrderID: o.ID, OrderDate: o.CreatedAt,
		BuyerEmail: o.Email, BuyerCountry: country, Locale: loc, Net: o.Invoice.Amount, Total: o.Invoice.Amount,
		PaidWith: gatewayName(cat, o.Invoice.Gateway, loc), PaidAt: o.Invoice.PaidAt}
	if cat != nil {
		d.Seller = cat.Seller
	}
	l := texts[loc]
	for _, ln := range o.Quote.Lines {
		d.Lines = append(d.Lines, Line{Description: lineText(ln, o.Quote, l), Amount: ln.Amount})
	}
	if q := o.Quote.Discount; q != nil && q.Amount.Amount > 0 {
		d.Discount = &Line{Description: l.Discount + " (" + q.Code + ")", Amount: money.Money{Amount: -q.Amount.Amount, Currency: q.Amount.Currency}}
	}
	if t := o.Quote.Tax; t != nil {
		// A taxed order: net, the tax at its country's rate, gross; the buyer's country is the
		// billing country taxed (the evidence kept with the order), not a guess from the address.
		d.Net = o.Quote.NetAmount()
		d.Tax = &Tax{Country: t.Country, Rate: t.Rate, Amount: money.Money{Amount: t.Amount, Currency: t.Currency}}
		if t.Country != "" {
			d.BuyerCountry = t.Country
		}
	}
	return d
}

// ForCreditNote is the document of credit note c of o.
func ForCreditNote(o order.Order, c refund.CreditNote, cat *catalog.Catalog, country string) Document {
	d := ForInvoice(o, cat, country)
	l := texts[d.Locale]
	d.CreditNote, d.Refers, d.Number, d.Issued = true, o.Invoice.Number, c.Number, c.CreatedAt
	if d.Refers == "" {
		d.Refers = o.Invoice.ID
	}
	d.Lines = []Line{{Description: l.Refunded + ": " + l.Invoice + " " + d.Refers, Amount: c.Amount}}
	d.Discount, d.Net, d.Total, d.PaidAt = nil, c.Amount, c.Amount, c.CreatedAt
	if d.Tax != nil {
		// The invoice's tax in proportion to what was given back (refund.CreditNote).
		d.Net, d.Tax.Amount = c.Net, c.Tax
		if !o.Quote.Tax.Included {
			d.Lines[0].Amount = c.Net // the invoice's lines were net: so is the correction's
		}
	}
	return d
}

// lineText is a quote line in the document's words: the plan's name and cycle, the extra
// connections and their count, proxy protection.
func lineText(ln pricing.Line, q pricing.Quote, l labels) string {
	switch ln.Key {
	case pricing.LinePlan:
		name, _, _ := strings.Cut(ln.Label, " — ")
		if c, ok := l.Cycles[string(q.Cycle)]; ok {
			return name + " — " + c
		}
		return ln.Label
	case pricing.LineExtraConnections:
		return l.ExtraConnections + " × " + strconv.Itoa(q.ExtraConnections)
	case pricing.LineProxyProtection:
		return l.Proxy
	}
	return ln.Label
}

func gatewayName(cat *catalog.Catalog, module, loc string) string {
	if cat == nil {
		return module
	}
	for _, l := range []string{loc, strings.SplitN(loc, "-", 2)[0]} {
		if n := cat.GatewayNamesI18n[l][module]; n != "" {
			return n
		}
	}
	if n := cat.GatewayNames[module]; n != "" {
		return n
	}
	return module
}

// Render writes d as a PDF.
func Render(d Document) ([]byte, error) { return render(d, true) }

// fitSize is the font size, from the 10 pt of the parties' blocks down to 7 pt, at which s, a
// single word (no space), fits in w; 10 for text with spaces, which wraps between words.
func fitSize(pdf *fpdf.Fpdf, s string, w float64) float64 {
	if strings.ContainsAny(s, " \t") {
		return 10
	}
	size := 10.0
	for ; size > 7; size -= 0.5 {
		pdf.SetFontSize(size)
		if pdf.GetStringWidth(s) <= w-2*pdf.GetCellMargin() { // a cell's text stands inside its margins
			break
		}
	}
	pdf.SetFontSize(10)
	return size
}

func render(d Document, compress bool) ([]byte, error) {
	loc := normLocale(d.Locale)
	l := texts[loc]
	amount := func(m money.Money) string { return money.FormatLocale(m.Amount, m.Currency, loc) }
	date := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(dateLayout(loc))
	}
	title := l.Invoice
	if d.CreditNote {
		title = l.CreditNote
	}

	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetCompression(compress)
	pdf.SetTitle(title+" "+d.Number, true)
	pdf.SetAuthor(d.Seller.Name, true)
	pdf.SetCreationDate(d.Issued) // the same document gives the same bytes
	pdf.SetModificationDate(d.Issued)
	pdf.AddUTF8FontFromBytes("dejavu", "", dejaVuSans)
	pdf.SetMargins(20, 20, 20)
	pdf.SetAutoPageBreak(true, 20)
	pdf.AddPage()
	width, _ := pdf.GetPageSize()
	inner := width - 40

	pdf.SetFont("dejavu", "", 20)
	pdf.CellFormat(inner, 10, title, "", 1, "L", false, 0, "")
	pdf.SetFont("dejavu", "", 10)
	pdf.Ln(2)
	kv := func(k, v string) {
		if v == "" {
			return
		}
		pdf.CellFormat(45, 6, k, "", 0, "L", false, 0, "")
		pdf.CellFormat(inner-45, 6, v, "", 1, "L", false, 0, "")
	}
	kv(l.Number, d.Number)
	if d.CreditNote {
		kv(l.Refers, d.Refers)
	}
	kv(l.Issued, date(d.Issued))
	kv(l.Order, d.OrderID)
	kv(l.OrderDate, date(d.OrderDate))
	pdf.Ln(4)

	// Seller and buyer side by side.
	col := inner / 2
	y := pdf.GetY()
	block := func(x float64, head string, rows []string) float64 {
		pdf.SetXY(x, y)
		pdf.SetFont("dejavu", "", 11)
		pdf.CellFormat(col, 6, head, "", 2, "L", false, 0, "")
		pdf.SetFont("dejavu", "", 10)
		for _, r := range rows {
			if r == "" {
				continue
			}
			pdf.SetX(x)
			// An email address or a URL is one word: wrapped, it would break anywhere ("…@example.co"
			// over "m"), so it is set smaller until it fits on its line; only past 7 pt does it wrap.
			if size := fitSize(pdf, r, col-4); size < 10 {
				pdf.SetFontSize(size)
				pdf.MultiCell(col-4, 5, r, "", "L", false)
				pdf.SetFontSize(10)
				continue
			}
			pdf.MultiCell(col-4, 5, r, "", "L", false)
		}
		return pdf.GetY()
	}
	s := d.Seller
	var sellerRows []string
	sellerRows = append(sellerRows, s.Name, s.Address, s.Country)
	if s.TaxID != "" {
		sellerRows = append(sellerRows, l.TaxID+": "+s.TaxID)
	}
	sellerRows = append(sellerRows, s.Email, s.SupportURL)
	y1 := block(20, l.Seller, sellerRows)
	buyerRows := []string{d.BuyerEmail}
	if d.BuyerCountry != "" {
		buyerRows = append(buyerRows, l.Country+": "+d.BuyerCountry)
	}
	y2 := block(20+col, l.Buyer, buyerRows)
	pdf.SetXY(20, max(y1, y2)+8)

	// Lines.
	pdf.SetFillColor(238, 238, 238)
	pdf.CellFormat(inner-40, 7, l.Description, "B", 0, "L", true, 0, "")
	pdf.CellFormat(40, 7, l.Amount, "B", 1, "R", true, 0, "")
	lines := d.Lines
	if d.Discount != nil {
		lines = append(append([]Line{}, lines...), *d.Discount)
	}
	for _, ln := range lines {
		pdf.CellFormat(inner-40, 7, ln.Description, "", 0, "L", false, 0, "")
		pdf.CellFormat(40, 7, amount(ln.Amount), "", 1, "R", false, 0, "")
	}
	pdf.Ln(2)
	sum := func(k string, m money.Money) {
		pdf.CellFormat(inner-40, 7, k, "T", 0, "R", false, 0, "")
		pdf.CellFormat(40, 7, amount(m), "T", 1, "R", false, 0, "")
	}
	sum(l.Net, d.Net)
	if d.Tax != nil { // no tax line for an order without tax
		sum(fmt.Sprintf("%s %s%% (%s)", l.Tax, d.Tax.Rate, d.Tax.Country), d.Tax.Amount)
	}
	pdf.SetFont("dejavu", "", 12)
	sum(l.Total, d.Total)
	pdf.SetFont("dejavu", "", 10)
	pdf.Ln(6)
	if d.CreditNote {
		pdf.CellFormat(inner, 6, l.Refunded+" "+l.PaidOn+" "+date(d.PaidAt)+" ("+d.PaidWith+")", "", 1, "L", false, 0, "")
	} else if !d.PaidAt.IsZero() {
		pdf.CellFormat(inner, 6, l.PaidWith+" "+d.PaidWith+" "+l.PaidOn+" "+date(d.PaidAt), "", 1, "L", false, 0, "")
	}

	var b bytes.Buffer
	if err := pdf.Output(&b); err != nil {
		return nil, fmt.Errorf("invoice pdf %s: %w", d.Number, err)
	}
	return b.Bytes(), nil
}
