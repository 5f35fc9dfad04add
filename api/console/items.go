package console

import (
	"strings"

	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/pricing"
)

// The kinds of an order's billed items.
const (
	ItemPlan     = "plan"
	ItemExtra    = "extra"
	ItemProxy    = "proxy"
	ItemDiscount = "discount"
	ItemTax      = "tax"
)

// Item is one billed item of an order: Quantity × Unit = Amount (a discount's is negative).
type Item struct {
	Kind, Description string
	Quantity          int
	Unit, Amount      money.Money
}

// Items are what the quote billed, as items whose amounts sum to total (the invoice's amount):
// its lines, its discount, and (should a quote ever not add up, as none does today) the
// difference as one more line, so the console never shows items that disagree with the total.
// Tax added on top of the prices (a catalog tax block with pricesIncludeTax false) is an item of
// its own; tax included in the prices is inside the lines' amounts and makes none.
func Items(q pricing.Quote, total money.Money) []Item {
	items := []Item{}
	var sum int64
	add := func(it Item) {
		items = append(items, it)
		sum += it.Amount.Amount
	}
	for _, l := range q.Lines {
		it := Item{Kind: ItemPlan, Description: l.Label, Quantity: 1, Unit: l.Amount, Amount: l.Amount}
		switch l.Key {
		case pricing.LineExtraConnections:
			it.Kind = ItemExtra
			if n := int64(q.ExtraConnections); n > 1 && l.Amount.Amount%n == 0 {
				it.Quantity, it.Unit.Amount = q.ExtraConnections, l.Amount.Amount/n
			}
		case pricing.LineProxyProtection:
			it.Kind = ItemProxy
		}
		add(it)
	}
	if d := q.Discount; d != nil && d.Amount.Amount > 0 {
		off := money.Money{Amount: -d.Amount.Amount, Currency: d.Amount.Currency}
		add(Item{Kind: ItemDiscount, Description: "Promotion " + d.Code, Quantity: 1, Unit: off, Amount: off})
	}
	if t := q.Tax; t != nil && !t.Included && t.Amount != 0 {
		m := money.Money{Amount: t.Amount, Currency: t.Currency}
		add(Item{Kind: ItemTax, Description: "VAT " + t.Rate + "% (" + t.Country + ")", Quantity: 1, Unit: m, Amount: m})
	}
	if diff := total.Amount - sum; diff != 0 || len(items) == 0 {
		kind := ItemPlan
		if diff < 0 {
			kind = ItemDiscount
		}
		m := money.Money{Amount: diff, Currency: total.Currency}
		add(Item{Kind: kind, Description: "Adjustment", Quantity: 1, Unit: m, Amount: m})
	}
	return items
}

// Product names what a quote sells in a few words: its plan's name (without the cycle), else
// the line an upsell adds to, else its first line.
func Product(q pricing.Quote) string {
	for _, l := range q.Lines {
		if l.Key == pricing.LinePlan {
			name, _, _ := strings.Cut(l.Label, " — ")
			return name
		}
	}
	for _, l := range q.Lines {
		if l.Key == pricing.LineExtraConnections {
			if _, line, ok := strings.Cut(l.Label, " — "); ok {
				return line
			}
		}
	}
	if len(q.Lines) > 0 {
		return q.Lines[0].Label
	}
	return ""
}
