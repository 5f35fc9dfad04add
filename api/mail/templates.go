package mail

import (
	"bytes"
	"fmt"
	"html/template"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/money"
)

// Kind names a message the shop sends.
type Kind string

// The messages. A new one adds its kind here, its sentences to Texts (so every locale must
// translate them) and its layout to layouts.
const (
	KindSigninLink    Kind = "signin-link"    // a one-time sign-in link
	KindOrderReceived Kind = "order-received" // the payment of an order arrived; lines are being set up
	KindLineReady     Kind = "line-ready"     // the order's lines work: a link to the credentials page

	// The renewal mails, each with the pay link of the open renewal invoice.
	KindRenewalInvoice  Kind = "renewal-invoice"  // the renewal invoice was created: amount, due date
	KindRenewalReminder Kind = "renewal-reminder" // three days before the due date, still unpaid
	KindRenewalDue      Kind = "renewal-due"      // on the due date, still unpaid
	KindRenewalOverdue  Kind = "renewal-overdue"  // a day after: the line is suspended on Suspend unless paid

	// KindTrialEnding is sent a day before a free trial ends: continue with a paid plan, linking
	// to the storefront's services view.
	KindTrialEnding Kind = "trial-ending"

	// KindRenewalPaid: a renewal's payment arrived and the line runs to the new due date; it
	// lists the items, links the invoice's PDF and the services view.
	KindRenewalPaid Kind = "renewal-paid"
	// KindLineChange is sent when an operator changed a line with charge now: the difference to
	// pay for the rest of the period, with the pay link of its invoice.
	KindLineChange Kind = "line-change"
	// KindRefund is sent for every refund of an order, full or partial: the amount, and a link to
	// its credit note.
	KindRefund Kind = "refund"
	// KindPaymentRequest is sent when an operator releases a held order asking for payment: the
	// amount, the pay link and until when it works.
	KindPaymentRequest Kind = "payment-request"
)

// Kinds are every message, in the order the preview lists them.
var Kinds = []Kind{KindSigninLink, KindOrderReceived, KindLineReady,
	KindRenewalInvoice, KindRenewalReminder, KindRenewalDue, KindRenewalOverdue, KindRenewalPaid, KindTrialEnding, KindLineChange, KindRefund, KindPaymentRequest}

// Data is what a message is about; a kind uses only some fields.
type Data struct {
	Store   string // the shop's name
	Link    string // the message's one link: sign-in, the order's page, the credentials page, the pay link
	OrderID string
	Total   string // the amount paid or to pay, already formatted for the locale (FormatMoney)
	Minutes int    // how long a sign-in link works
	Due     string // the renewal's due date or the trial's end, formatted for the locale (FormatDate)
	Suspend string // the date an overdue line is suspended unless paid (FormatDate)
	// Receipt is the invoice PDF's link and Invoice its number: the order and renewal-paid mails
	// link it when set.
	Receipt, Invoice string
	// Card is how a renewal mail's invoice is paid when the line renews with a saved card:
	// CardSaved (charged on the due date) or CardDeclined (a charge did not pay: pay by the
	// link); "" for a line paid by its link.
	Card CardState
	// Items are what the order or renewal bills, already in the buyer's words and amounts
	// (the plan and its cycle, extras, proxy protection, a discount as a negative amount); the
	// mail lists them above Total when set.
	Items []Item
}

// CardState is how a saved card stands to pay a renewal (Data.Card).
type CardState string

const (
	CardSaved    CardState = "saved"
	CardDeclined CardState = "declined"
)

// cardSentences puts a card line's sentences in a renewal mail's: the card pays it on the due
// date (nothing to do), or, once a charge did not pay, the buyer pays by the link.
func cardSentences(kind Kind, card CardState, t Texts, before []string) []string {
	if card == "" {
		return before
	}
	next := map[Kind]string{KindRenewalInvoice: t.RenewalInvoiceNext, KindRenewalReminder: t.RenewalInvoiceNext, KindRenewalDue: t.DueNext}
	instead := t.CardDeclined
	if card == CardSaved {
		instead = map[Kind]string{KindRenewalInvoice: t.CardNext, KindRenewalReminder: t.CardNext, KindRenewalDue: t.CardDueNext}[kind]
	}
	out := make([]string, 0, len(before)+1)
	for _, s := range before {
		switch {
		case next[kind] != "" && s == next[kind] && instead != "":
			out = append(out, instead)
		case kind == KindRenewalOverdue && card == CardDeclined && s == t.OverdueWarning:
			out = append(out, t.CardDeclined, s)
		default:
			out = append(out, s)
		}
	}
	return out
}

// Item is one billed line of a mail.
type Item struct {
	Text   string
	Amount string // formatted for the locale (FormatMoney); a discount starts with "−"
}

// receiptKinds are the mails that link the invoice's PDF.
var receiptKinds = []Kind{KindOrderReceived, KindRenewalPaid}

// Rendered is a message's subject and its two bodies.
type Rendered struct {
	Subject, Text, HTML string
}

// Message addresses r to to.
func (r Rendered) Message(to string) Message {
	return Message{To: to, Subject: r.Subject, Body: r.Text, HTML: r.HTML}
}

// layout is which sentences of Texts a kind says, in order: before its link, the link's label,
// after it.
type layout struct {
	subject func(Texts) string
	before  func(Texts) []string
	button  func(Texts) string
	after   func(Texts) []string
}

var layouts = map[Kind]layout{
	KindSigninLink: {
		subject: func(t Texts) string { return t.SigninSubject },
		before:  func(t Texts) []string { return []string{t.SigninIntro} },
		button:  func(t Texts) string { return t.SigninButton },
		after:   func(t Texts) []string { return []string{t.SigninIgnore} },
	},
	KindOrderReceived: {
		subject: func(t Texts) string { return t.OrderSubject },
		before:  func(t Texts) []string { return []string{t.OrderIntro, t.OrderNext} },
		button:  func(t Texts) string { return t.OrderButton },
		after:   func(Texts) []string { return nil },
	},
	KindLineReady: {
		subject: func(t Texts) string { return t.ReadySubject },
		before:  func(t Texts) []string { return []string{t.ReadyIntro} },
		button:  func(t Texts) string { return t.ReadyButton },
		after:   func(t Texts) []string { return []string{t.ReadyCredentials} },
	},
	KindRenewalInvoice: {
		subject: func(t Texts) string { return t.RenewalInvoiceSubject },
		before:  func(t Texts) []string { return []string{t.RenewalInvoiceIntro, t.RenewalInvoiceNext} },
		button:  func(t Texts) string { return t.RenewalButton },
		after:   func(t Texts) []string { return []string{t.RenewalLinkNote} },
	},
	KindRenewalReminder: {
		subject: func(t Texts) string { return t.ReminderSubject },
		before:  func(t Texts) []string { return []string{t.ReminderIntro, t.RenewalInvoiceNext} },
		button:  func(t Texts) string { return t.RenewalButton },
		after:   func(t Texts) []string { return []string{t.RenewalLinkNote} },
	},
	KindRenewalDue: {
		subject: func(t Texts) string { return t.DueSubject },
		before:  func(t Texts) []string { return []string{t.DueIntro, t.DueNext} },
		button:  func(t Texts) string { return t.RenewalButton },
		after:   func(t Texts) []string { return []string{t.RenewalLinkNote} },
	},
	KindRenewalOverdue: {
		subject: func(t Texts) string { return t.OverdueSubject },
		before:  func(t Texts) []string { return []string{t.OverdueIntro, t.OverdueWarning} },
		button:  func(t Texts) string { return t.RenewalButton },
		after:   func(t Texts) []string { return []string{t.RenewalLinkNote} },
	},
	KindRenewalPaid: {
		subject: func(t Texts) string { return t.RenewalPaidSubject },
		before:  func(t Texts) []string { return []string{t.RenewalPaidIntro} },
		button:  func(t Texts) string { return t.RenewalPaidButton },
		after:   func(Texts) []string { return nil },
	},
	KindLineChange: {
		subject: func(t Texts) string { return t.ChangeSubject },
		before:  func(t Texts) []string { return []string{t.ChangeIntro, t.ChangeNext} },
		button:  func(t Texts) string { return t.RenewalButton },
		after:   func(t Texts) []string { return []string{t.RenewalLinkNote} },
	},
	KindTrialEnding: {
		subject: func(t Texts) string { return t.TrialEndingSubject },
		before:  func(t Texts) []string { return []string{t.TrialEndingIntro, t.TrialEndingNext} },
		button:  func(t Texts) string { return t.TrialEndingButton },
		after:   func(Texts) []string { return nil },
	},
	KindRefund: {
		subject: func(t Texts) string { return t.RefundSubject },
		before:  func(t Texts) []string { return []string{t.RefundIntro} },
		button:  func(t Texts) string { return t.RefundButton },
		after:   func(t Texts) []string { return []string{t.RefundNext} },
	},
	KindPaymentRequest: {
		subject: func(t Texts) string { return t.PaymentRequestSubject },
		before:  func(t Texts) []string { return []string{t.PaymentRequestIntro} },
		button:  func(t Texts) string { return t.PaymentRequestButton },
		after:   func(t Texts) []string { return []string{t.PaymentRequestNext} },
	},
}

// Render writes the message kind in locale (any tag: Locale picks the closest of Locales, English
// when none is close) about d.
func Render(kind Kind, locale string, d Data) (Rendered, error) {
	l, ok := layouts[kind]
	if !ok {
		return Rendered{}, fmt.Errorf("mail: no message %q (one of %s)", kind, kindList())
	}
	lang := Locale(locale)
	if lang == "" {
		lang = "en"
	}
	t := texts[lang]
	fill := strings.NewReplacer("{store}", d.Store, "{order}", d.OrderID, "{total}", d.Total, "{minutes}", strconv.Itoa(d.Minutes),
		"{due}", d.Due, "{suspend}", d.Suspend, "{invoice}", d.Invoice).Replace
	page := htmlPage{
		Lang: lang, Subject: fill(l.subject(t)), Greeting: fill(t.Greeting), Button: fill(l.button(t)),
		Link: d.Link, Signature: fill(t.Signature),
	}
	for _, s := range cardSentences(kind, d.Card, t, l.before(t)) {
		page.Before = append(page.Before, fill(s))
	}
	for _, s := range l.after(t) {
		page.After = append(page.After, fill(s))
	}
	if d.Receipt != "" && slices.Contains(receiptKinds, kind) {
		page.Receipt, page.ReceiptText = d.Receipt, fill(t.OrderReceipt)
	}
	if len(d.Items) > 0 {
		page.Items, page.TotalLabel, page.Total = d.Items, t.ItemsTotal, d.Total
	}
	var text strings.Builder
	text.WriteString(page.Greeting + "\n\n")
	for _, p := range page.Before {
		text.WriteString(p + "\n\n")
	}
	if len(page.Items) > 0 {
		for _, it := range page.Items {
			text.WriteString(it.Text + ": " + it.Amount + "\n")
		}
		text.WriteString(page.TotalLabel + ": " + page.Total + "\n\n")
	}
	text.WriteString(d.Link + "\n\n")
	if page.Receipt != "" {
		text.WriteString(page.ReceiptText + "\n" + page.Receipt + "\n\n")
	}
	for _, p := range page.After {
		text.WriteString(p + "\n\n")
	}
	text.WriteString(page.Signature + "\n")
	var html bytes.Buffer
	if err := htmlLayout.Execute(&html, page); err != nil {
		return Rendered{}, fmt.Errorf("mail: render %s: %w", kind, err)
	}
	return Rendered{Subject: page.Subject, Text: text.String(), HTML: html.String()}, nil
}

func kindList() string {
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// ParseKind reads a kind's name.
func ParseKind(s string) (Kind, error) {
	if k := Kind(s); slices.Contains(Kinds, k) {
		return k, nil
	}
	return "", fmt.Errorf("mail: no message %q (one of %s)", s, kindList())
}

type htmlPage struct {
	Lang, Subject, Greeting, Button, Signature, Link string
	Receipt, ReceiptText                             string
	Before, After                                    []string
	Items                                            []Item
	TotalLabel, Total                                string
}

// Every text is escaped; the link too, and html/template would replace one that is not
// http(s) in the href.
var htmlLayout = template.Must(template.New("mail").Parse(`<!DOCTYPE html>
<html lang="{{.Lang}}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>{{.Subject}}</title></head>
<body style="margin:0;padding:24px;background:#f4f4f5;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#18181b">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<p>{{.Greeting}}</p>
{{range .Before}}<p>{{.}}</p>
{{end}}{{if .Items}}<table role="presentation" style="width:100%;border-collapse:collapse;margin:0 0 16px">
{{range .Items}}<tr><td style="padding:6px 0;border-top:1px solid #e4e4e7">{{.Text}}</td><td style="padding:6px 0 6px 12px;border-top:1px solid #e4e4e7;text-align:right;white-space:nowrap">{{.Amount}}</td></tr>
{{end}}<tr><td style="padding:6px 0;border-top:1px solid #18181b;font-weight:700">{{.TotalLabel}}</td><td style="padding:6px 0 6px 12px;border-top:1px solid #18181b;text-align:right;white-space:nowrap;font-weight:700">{{.Total}}</td></tr>
</table>
{{end}}<p><a href="{{.Link}}" style="display:inline-block;padding:12px 20px;background:#2563eb;color:#ffffff;text-decoration:none;border-radius:6px">{{.Button}}</a></p>
<p style="font-size:12px;color:#52525b;word-break:break-all">{{.Link}}</p>
{{if .Receipt}}<p>{{.ReceiptText}} <a href="{{.Receipt}}" style="word-break:break-all">{{.Receipt}}</a></p>
{{end}}{{range .After}}<p>{{.}}</p>
{{end}}<p>{{.Signature}}</p>
</div>
</body>
</html>
`))

// Locales are the languages mail is written in: the storefront's.
var Locales = []string{"en", "en-us", "en-gb", "de-de", "es-es", "nl-nl", "pt-pt"}

// Locale is the one of Locales closest to tag (de, de-AT and de_de all give de-de; pt-BR gives
// pt-pt), "" when none speaks its language.
func Locale(tag string) string {
	t := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(tag)), "_", "-")
	if t == "" {
		return ""
	}
	if slices.Contains(Locales, t) {
		return t
	}
	lang, _, _ := strings.Cut(t, "-")
	for _, l := range Locales {
		if l == lang || strings.HasPrefix(l, lang+"-") {
			return l
		}
	}
	return ""
}

// MatchAcceptLanguage is the locale of the most preferred language of an Accept-Language header
// that one of Locales speaks, "" when none does.
func MatchAcceptLanguage(header string) string {
	type pref struct {
		tag string
		q   float64
	}
	var prefs []pref
	for _, item := range strings.Split(header, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(item), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				continue
			}
			q = f
		}
		if tag != "" && tag != "*" && q > 0 {
			prefs = append(prefs, pref{tag, q})
		}
	}
	sort.SliceStable(prefs, func(i, j int) bool { return prefs[i].q > prefs[j].q })
	for _, p := range prefs {
		if l := Locale(p.tag); l != "" {
			return l
		}
	}
	return ""
}

// FormatDate writes t's calendar date (in UTC, the shop's business days) as locale writes dates
// ("24. Dezember 2026" in de-de, "December 24, 2026" in en-us); English for an unknown locale.
func FormatDate(t time.Time, locale string) string {
	l := Locale(locale)
	if l == "" {
		l = "en"
	}
	tx := texts[l]
	t = t.UTC()
	return strings.NewReplacer("{day}", strconv.Itoa(t.Day()), "{month}", tx.Months[t.Month()-1],
		"{year}", strconv.Itoa(t.Year())).Replace(tx.DateLayout)
}

// FormatMoney writes minor units of code as locale writes amounts ("12,00 €" in de-de, "€12.00"
// in en).
func FormatMoney(minor int64, code, locale string) string {
	return money.FormatLocale(minor, code, Locale(locale))
}
