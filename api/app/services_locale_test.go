package app_test

import (
	"net/http"
	"testing"

	genservices "github.com/streamcart/streamcart/gen/services"
	genupsell "github.com/streamcart/streamcart/gen/upsell"
)

// TestServiceNamesLocalized: a service (and its upsell offer) shows its plan's name in the asked
// locale when the catalog translates it, and the stored (catalog language) name otherwise.
func TestServiceNamesLocalized(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		buyer := s.identify("locale-services@example.com", "")
		_, svcID := s.activeService(buyer.Token, trial())
		_, paidID := s.activeService(buyer.Token, standard())
		owner := s.proven("locale-services@example.com")
		tests := []struct {
			locale     *string
			want, paid string
		}{
			{nil, "Free Trial", "Standard"},
			{ptr("en-gb"), "Free Trial", "Standard"},
			{ptr("de-de"), "Kostenlose Testversion", "Standard"},
			{ptr("pt-pt"), "Teste gratuito", "Padrão"},
		}
		for _, tt := range tests {
			name := "none"
			if tt.locale != nil {
				name = *tt.locale
			}
			t.Run(name, func(t *testing.T) {
				one, err := s.services.Get(t.Context(), &genservices.GetPayload{Token: ptr(buyer.Token), ServiceID: svcID, Locale: tt.locale})
				if err != nil {
					t.Fatal(err)
				}
				all, err := s.services.List(t.Context(), &genservices.ListPayload{Token: ptr(buyer.Token), Locale: tt.locale})
				if err != nil {
					t.Fatal(err)
				}
				names := map[string]string{}
				for _, v := range all.Services {
					names[v.ServiceID] = v.Name
				}
				if one.Name != tt.want || names[svcID] != tt.want || names[paidID] != tt.paid {
					t.Errorf("names %q / %v, want %q and %q", one.Name, names, tt.want, tt.paid)
				}
				offers, err := s.after.upsell.Offers(t.Context(), &genupsell.OffersPayload{Token: ptr(owner.Token), Locale: tt.locale})
				if err != nil {
					t.Fatal(err)
				}
				if len(offers.Offers) != 1 || offers.Offers[0].ServiceID != paidID || offers.Offers[0].Name != tt.paid {
					t.Errorf("offers %+v, want %s named %q", offers.Offers, paidID, tt.paid)
				}
			})
		}
		if status, _, body := s.raw(http.MethodGet, "/checkout/api/services?locale=fr-fr", buyer.Token, nil); status != http.StatusBadRequest {
			t.Errorf("locale outside the list: %d %s, want 400", status, body)
		}
	})
}
