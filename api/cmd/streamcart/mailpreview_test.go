package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/config"
)

func TestMailPreview(t *testing.T) {
	cases := []struct {
		args    []string
		want    []string // in the output
		wantErr string
	}{
		{args: []string{"signin-link", "--locale", "de-de"}, want: []string{
			"Subject: Ihr Anmeldelink für Streamcart\n", "--- text/plain ---\nHallo,\n", "innerhalb von 15 Minuten",
			"--- text/html ---\n<!DOCTYPE html>", `<html lang="de-de">`, `href="https://shop.example/checkout/de-de/?signin=sample-token"`,
		}},
		{args: []string{"--locale", "ES-ES", "order-received", "--store-name", "Tienda"}, want: []string{
			"Subject: Hemos recibido tu pedido ord_7QxS4mPz\n", "tu pago de 12,99\u00a0€", "El equipo de Tienda", "/checkout/es-es/waiting?order=ord_7QxS4mPz",
		}},
		{args: []string{"line-ready"}, want: []string{"Subject: Your line is ready", "/checkout/success?order=ord_7QxS4mPz", "we never send passwords"}},
		{args: []string{"line-ready", "--locale", "es-es", "--raw"}, want: []string{
			"\r\nMessage-ID: <streamcart.1.", "\r\nDate: Fri, 02 Jan 2026 15:04:05 +0000\r\n", "Content-Type: multipart/alternative;",
			"=?UTF-8?q?Tu_l=C3=ADnea_est=C3=A1_lista", "Content-Type: text/plain; charset=UTF-8", "Content-Type: text/html; charset=UTF-8",
		}},
		{args: []string{"renewal-overdue", "--locale", "de-de"}, want: []string{
			"Subject: Zahlung überfällig: Ihr Streamcart-Zugang wird am 27. Dezember 2026 gesperrt\n", "am 24. Dezember 2026 fällig",
			"über 12,99\u00a0€", `href="https://shop.example/checkout/de-de/renew?invoice=inv_7QxS4mPz&amp;t=sample-token"`,
		}},
		{args: []string{"renewal-invoice"}, want: []string{"Subject: Your Streamcart subscription renews on 24 December 2026", "€12.99", "/checkout/renew?invoice="}},
		{args: []string{"renewal-reminder", "--locale", "en-us"}, want: []string{"December 24, 2026", "in three days"}},
		{args: []string{"renewal-due", "--locale", "nl-nl"}, want: []string{"vervalt vandaag"}},
		{args: []string{"trial-ending", "--locale", "pt-pt"}, want: []string{"termina a 24 de dezembro de 2026", "/checkout/pt-pt/?view=services"}},
		{args: []string{"refund", "--locale", "de-de"}, want: []string{"Wir haben 12,99", "erstattet", "/checkout/api/credit-notes/cn_7QxS4mPz.pdf?t=", "CN-2026-000007"}},
		{args: []string{"payment-request", "--locale", "es-es"}, want: []string{"Ya puedes pagar tu pedido ord_7QxS4mPz", "Pagar 12,99", "24 de diciembre de 2026"}},
		{args: []string{"renewal-receipt"}, wantErr: `no message "renewal-receipt" (one of signin-link, order-received, line-ready, renewal-invoice, renewal-reminder, renewal-due, renewal-overdue, renewal-paid, trial-ending, line-change, refund, payment-request)`},
		{args: []string{"signin-link", "--locale", "fr-fr"}, wantErr: `no locale "fr-fr"`},
		{args: []string{}, wantErr: "mail preview KIND"},
	}
	for _, tc := range cases {
		var out bytes.Buffer
		err := mailPreview(tc.args, &out)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%v: err %v, want %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%v: no %q in:\n%s", tc.args, w, out.String())
			}
		}
	}
}

func TestMailPreviewHelp(t *testing.T) {
	var out bytes.Buffer
	// config.ErrHelp: run exits 0 after the usage.
	if err := mailPreview([]string{"-h"}, &out); !errors.Is(err, config.ErrHelp) {
		t.Fatalf("-h: %v, want ErrHelp", err)
	}
	if !strings.Contains(out.String(), "-locale") || !strings.Contains(out.String(), "signin-link") {
		t.Errorf("help:\n%s", out.String())
	}
}
