package catalog_test

import (
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/numbering"
)

func TestInvoiceNumberPatterns(t *testing.T) {
	c, err := catalog.Parse("catalog.yaml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if c.InvoiceNumber != numbering.DefaultInvoice || c.CreditNoteNumber != numbering.DefaultCreditNote {
		t.Fatalf("defaults = %q, %q", c.InvoiceNumber, c.CreditNoteNumber)
	}
	c, err = catalog.Parse("catalog.yaml", []byte(base+"invoiceNumber: \"INV/{YY}/{seq:05}\"\ncreditNoteNumber: \"R{seq}\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.InvoiceNumber != "INV/{YY}/{seq:05}" || c.CreditNoteNumber != "R{seq}" {
		t.Fatalf("patterns = %q, %q", c.InvoiceNumber, c.CreditNoteNumber)
	}
	for _, bad := range []string{"invoiceNumber: \"SC-{YYYY}\"\n", "invoiceNumber: \"{seq}-{week}\"\n", "creditNoteNumber: [x]\n"} {
		_, err := catalog.Parse("catalog.yaml", []byte(base+bad))
		if err == nil || !strings.Contains(err.Error(), strings.SplitN(bad, ":", 2)[0]) {
			t.Errorf("Parse(%q) = %v, want a problem naming the field", bad, err)
		}
	}
}
