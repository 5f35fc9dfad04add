package whmcsfake_test

import (
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/whmcs/whmcsfake"
)

// TestOpenKeepsState: a fake opened on a state file and stopped keeps its records when opened
// again on the file, as a real WHMCS restarted keeps its database; ids go on from there.
func TestOpenKeepsState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	clock := whmcsfake.WithClock(func() time.Time { return day })
	f, err := whmcsfake.Open(whmcsfake.Demo(), path, clock)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(f.Handler())
	post(t, srv, "AddClient", url.Values{"email": {"kept@example.com"}, "password2": {"pw"}, "skipvalidation": {"true"}})
	post(t, srv, "AddOrder", url.Values{"clientid": {"1"}, "paymentmethod": {"banktransfer"}, "pid[0]": {"2"}, "billingcycle[0]": {"monthly"}})
	post(t, srv, "AddInvoicePayment", url.Values{"invoiceid": {"1"}, "transid": {"t-1"}, "gateway": {"banktransfer"}})
	srv.Close()
	before := f.State()

	again, err := whmcsfake.Open(whmcsfake.Demo(), path, clock)
	if err != nil {
		t.Fatal(err)
	}
	if after := again.State(); !reflect.DeepEqual(after, before) {
		t.Fatalf("state after a restart\n%+v\nwant\n%+v", after, before)
	}
	srv = httptest.NewServer(again.Handler())
	defer srv.Close()
	post(t, srv, "AddOrder", url.Values{"clientid": {"1"}, "paymentmethod": {"banktransfer"}, "pid[0]": {"3"}, "billingcycle[0]": {"monthly"}})
	if st := again.State(); len(st.Orders) != 2 || st.Orders[1].ID != 2 || st.Invoices[1].ID != 2 || st.Services[1].ID != 2 {
		t.Fatalf("a new order after a restart: %+v", st)
	}
	if _, err := whmcsfake.Open(whmcsfake.Demo(), filepath.Join(t.TempDir(), "missing", "state.json")); err == nil {
		t.Fatal("a state file in a missing folder was accepted")
	}
}
