package invoice

import (
	"fmt"
	"strings"

	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
)

// labels are the words of a PDF in one locale.
type labels struct {
	Invoice, CreditNote, Number, Refers, Issued, OrderDate, Order string
	Seller, Buyer, TaxID, Email, Country                          string
	Description, Amount, Discount, Net, Tax, Total                string
	PaidWith, PaidOn, Refunded, ExtraConnections, Proxy           string
	Cycles                                                        map[string]string
}

// texts has one complete table per locale of the checkout (the widget's seven).
var texts = map[string]labels{
	"en": {
		Invoice: "Invoice", CreditNote: "Credit note", Number: "Number", Refers: "Refers to invoice", Issued: "Date",
		OrderDate: "Order date", Order: "Order", Seller: "Seller", Buyer: "Bill to", TaxID: "VAT number", Email: "Email",
		Country: "Country", Description: "Description", Amount: "Amount", Discount: "Discount", Net: "Net", Tax: "VAT",
		Total: "Total", PaidWith: "Paid with", PaidOn: "on", Refunded: "Refunded", ExtraConnections: "Extra connections",
		Proxy: "Proxy protection",
		Cycles: map[string]string{"onetime": "one-time", "monthly": "monthly", "quarterly": "quarterly", "semiannually": "every 6 months",
			"annually": "yearly", "biennially": "every 2 years", "triennially": "every 3 years"},
	},
	"de-de": {
		Invoice: "Rechnung", CreditNote: "Gutschrift", Number: "Nummer", Refers: "Zu Rechnung", Issued: "Datum",
		OrderDate: "Bestelldatum", Order: "Bestellung", Seller: "Verkäufer", Buyer: "Rechnungsempfänger", TaxID: "USt-IdNr.",
		Email: "E-Mail", Country: "Land", Description: "Beschreibung", Amount: "Betrag", Discount: "Rabatt", Net: "Netto",
		Tax: "MwSt.", Total: "Gesamt", PaidWith: "Bezahlt mit", PaidOn: "am", Refunded: "Erstattet",
		ExtraConnections: "Zusätzliche Verbindungen", Proxy: "Proxy-Schutz",
		Cycles: map[string]string{"onetime": "einmalig", "monthly": "monatlich", "quarterly": "vierteljährlich", "semiannually": "halbjährlich",
			"annually": "jährlich", "biennially": "alle 2 Jahre", "triennially": "alle 3 Jahre"},
	},
	"es-es": {
		Invoice: "Factura", CreditNote: "Factura rectificativa", Number: "Número", Refers: "Rectifica la factura", Issued: "Fecha",
		OrderDate: "Fecha del pedido", Order: "Pedido", Seller: "Vendedor", Buyer: "Facturar a", TaxID: "NIF-IVA",
		Email: "Correo electrónico", Country: "País", Description: "Descripción", Amount: "Importe", Discount: "Descuento",
		Net: "Base imponible", Tax: "IVA", Total: "Total", PaidWith: "Pagado con", PaidOn: "el", Refunded: "Reembolsado",
		ExtraConnections: "Conexiones adicionales", Proxy: "Protección proxy",
		Cycles: map[string]string{"onetime": "pago único", "monthly": "mensual", "quarterly": "trimestral", "semiannually": "semestral",
			"annually": "anual", "biennially": "cada 2 años", "triennially": "cada 3 años"},
	},
	"nl-nl": {
		Invoice: "Factuur", CreditNote: "Creditnota", Number: "Nummer", Refers: "Bij factuur", Issued: "Datum",
		OrderDate: "Besteldatum", Order: "Bestelling", Seller: "Verkoper", Buyer: "Factuur aan", TaxID: "Btw-nummer",
		Email: "E-mail", Country: "Land", Description: "Omschrijving", Amount: "Bedrag", Discount: "Korting", Net: "Netto",
		Tax: "Btw", Total: "Totaal", PaidWith: "Betaald met", PaidOn: "op", Refunded: "Terugbetaald",
		ExtraConnections: "Extra verbindingen", Proxy: "Proxybescherming",
		Cycles: map[string]string{"onetime": "eenmalig", "monthly": "maandelijks", "quarterly": "per kwartaal", "semiannually": "per half jaar",
			"annually": "jaarlijks", "biennially": "elke 2 jaar", "triennially": "elke 3 jaar"},
	},
	"pt-pt": {
		Invoice: "Fatura", CreditNote: "Nota de crédito", Number: "Número", Refers: "Referente à fatura", Issued: "Data",
		OrderDate: "Data da encomenda", Order: "Encomenda", Seller: "Vendedor", Buyer: "Faturar a", TaxID: "NIF",
		Email: "E-mail", Country: "País", Description: "Descrição", Amount: "Valor", Discount: "Desconto", Net: "Valor líquido",
		Tax: "IVA", Total: "Total", PaidWith: "Pago com", PaidOn: "em", Refunded: "Reembolsado",
		ExtraConnections: "Ligações adicionais", Proxy: "Proteção proxy",
		Cycles: map[string]string{"onetime": "pagamento único", "monthly": "mensal", "quarterly": "trimestral", "semiannually": "semestral",
			"annually": "anual", "biennially": "a cada 2 anos", "triennially": "a cada 3 anos"},
	},
}

func init() {
	// en-us and en-gb are English; they differ in dates only.
	texts["en-us"], texts["en-gb"] = texts["en"], texts["en"]
}

// Locales are the locales a PDF is written in.
var Locales = []string{"en", "en-us", "en-gb", "de-de", "es-es", "nl-nl", "pt-pt"}

// normLocale is locale if a PDF has it, its language's table otherwise, else English.
func normLocale(locale string) string {
	l := strings.ToLower(locale)
	if _, ok := texts[l]; ok {
		return l
	}
	lang, _, _ := strings.Cut(l, "-")
	for _, k := range Locales {
		if strings.HasPrefix(k, lang+"-") {
			return k
		}
	}
	return "en"
}

// dateLayout is how a reader of locale writes a date.
func dateLayout(locale string) string {
	switch locale {
	case "en-us":
		return "01/02/2006"
	case "de-de":
		return "02.01.2006"
	case "nl-nl":
		return "02-01-2006"
	case "en", "en-gb", "es-es", "pt-pt":
		return "02/01/2006"
	}
	return "2006-01-02"
}

// Items are o's billed lines in the words of its buyer's locale, as its invoice PDF writes them
// (the plan and its cycle, the extra connections and their count, proxy protection), and its
// discount as a last line with a negative amount: what the order and renewal mails list.
func Items(o order.Order) []Line {
	l := texts[normLocale(o.Locale)]
	var out []Line
	for _, ln := range o.Quote.Lines {
		out = append(out, Line{Description: lineText(ln, o.Quote, l), Amount: ln.Amount})
	}
	if q := o.Quote.Discount; q != nil && q.Amount.Amount > 0 {
		out = append(out, Line{Description: l.Discount + " (" + q.Code + ")", Amount: money.Money{Amount: -q.Amount.Amount, Currency: q.Amount.Currency}})
	}
	return out
}

// TaxItems are the net and the tax of a taxed order in its buyer's words, as a receipt lists them
// under its items, the invoice's way ("Net", "VAT 19% (DE)"); none for an order without tax.
func TaxItems(o order.Order) []Line {
	t := o.Quote.Tax
	if t == nil {
		return nil
	}
	l := texts[normLocale(o.Locale)]
	return []Line{{Description: l.Net, Amount: o.Quote.NetAmount()},
		{Description: fmt.Sprintf("%s %s%% (%s)", l.Tax, t.Rate, t.Country), Amount: money.Money{Amount: t.Amount, Currency: t.Currency}}}
}
