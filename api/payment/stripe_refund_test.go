package payment_test

import (
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// TestStripeRefundAmountAgainstStripeMock: the console's partial refund is a Stripe refund of
// the payment intent with an amount, by the intent or found from the Checkout Session, and
// stripe-mock (Stripe's own OpenAPI) accepts the request.
func TestStripeRefundAmountAgainstStripeMock(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		e := newEnv(t, b, stripeGateway(t))
		sg := payment.NewStripe(payment.StripeConfig{SecretKey: "sk_test_123", APIURL: "http://stripe-mock", HTTPClient: stripeMockClient(t)}, e.st)
		for _, r := range []order.Review{
			{ID: "ref_part", OrderID: "ord_1", InvoiceID: "inv_1", Provider: "stripe", PaymentRef: "pi_123"},
			{ID: "ref_sess", OrderID: "ord_1", InvoiceID: "inv_1", Provider: "stripe", TransactionID: "cs_test_123"},
		} {
			id, err := sg.RefundAmount(t.Context(), r, money.Money{Amount: 500, Currency: "EUR"})
			if err != nil || !strings.HasPrefix(id, "re_") {
				t.Fatalf("refund %s: %q %v", r.ID, id, err)
			}
		}
	})
}
