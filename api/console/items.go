package console

import (
	"regexp"
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
// Description is English; Args are its parts, so that a console words it in its operator's
// language: the first names the wording, the rest are its values (ItemArgs).
type Item struct {
	Kind, Description string
	Args              []string
	Quantity          int
	Unit, Amount      money.Money
}

// The wordings of an item's Args, each with its values after it:
//
//	plan       [plan's name as the catalog writes it, billing cycle (monthly, …)]
//	extra      [count] or [count, the line's name] (an upsell)
//	proxy      []
//	promotion  [code]
//	tax        [rate in percent, country]
//	adjustment []
//	change     [from plan, to plan, billing cycle, connections, until YYYY-MM-DD]
//	renewal    [the line's name] or [the line's name, due YYYY-MM-DD]
//
// An item whose English text is none of these has no args (a console shows the description).
const (
	ArgsPlan       = "plan"
	ArgsExtra      = "extra"
	ArgsProxy      = "proxy"
	ArgsPromotion  = "promotion"
	ArgsTax        = "tax"
	ArgsAdjustment = "adjustment"
	ArgsChange     = "change"
	ArgsRenewal    = "renewal"
)

var (
	extraLabel   = regexp.MustCompile(`^(\d+) extra connections?(?: — (.+))?$`)
	changeLabel  = regexp.MustCompile(`^Change of (.+) to (.+), ([a-z]+), (\d+) connections, until (\d{4}-\d{2}-\d{2})$`)
	renewalLabel = regexp.MustCompile(`^Renewal — (.+?)(?: \((\d{4}-\d{2}-\d{2})\))?$`)
)

// lineArgs are a quote line's parts (see ArgsPlan), read back from its English label as the
// pricing, upsell, planchange and WHMCS renewal packages write it; nil when it matches none.
func lineArgs(l pricing.Line, q pricing.Quote) []string {
	switch l.Key {
	case pricing.LinePlan:
		if cyc := " — " + q.Cycle.Label(); q.Cycle != "" && strings.HasSuffix(l.Label, cyc) {
			return []string{ArgsPlan, strings.TrimSuffix(l.Label, cyc), string(q.Cycle)}
		}
		if m := renewalLabel.FindStringSubmatch(l.Label); m != nil {
			if m[2] == "" {
				return []string{ArgsRenewal, m[1]}
			}
			return []string{ArgsRenewal, m[1], m[2]}
		}
	case pricing.LineExtraConnections:
		if m := extraLabel.FindStringSubmatch(l.Label); m != nil {
			if m[2] == "" {
				return []string{ArgsExtra, m[1]}
			}
			return []string{ArgsExtra, m[1], m[2]}
		}
	case pricing.LineProxyProtection:
		return []string{ArgsProxy}
	case "change":
		if m := changeLabel.FindStringSubmatch(l.Label); m != nil {
			return append([]string{ArgsChange}, m[1:]...)
		}
	}
	return nil
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
		it := Item{Kind: ItemPlan, Description: l.Label, Args: lineArgs(l, q), Quantity: 1, Unit: l.Amount, Amount: l.Amount}
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
		add(Item{Kind: ItemDiscount, Description: "Promotion " + d.Code, Args: []string{ArgsPromotion, d.Code}, Quantity: 1, Unit: off, Amount: off})
	}
	if t := q.Tax; t != nil && !t.Included && t.Amount != 0 {
		m := money.Money{Amount: t.Amount, Currency: t.Currency}
		add(Item{Kind: ItemTax, Description: "VAT " + t.Rate + "% (" + t.Country + ")", Args: []string{ArgsTax, t.Rate, t.Country}, Quantity: 1, Unit: m, Amount: m})
	}
	if diff := total.Amount - sum; diff != 0 || len(items) == 0 {
		kind := ItemPlan
		if diff < 0 {
			kind = ItemDiscount
		}
		m := money.Money{Amount: diff, Currency: total.Currency}
		add(Item{Kind: kind, Description: "Adjustment", Args: []string{ArgsAdjustment}, Quantity: 1, Unit: m, Amount: m})
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
