package app_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/operator"
	genadminsession "github.com/streamcart/streamcart/gen/admin_session"
)

// An operator's TOTP secret is stored sealed under the shop's secret key: the database alone does
// not give it (a dump cannot make codes). A secret an earlier version kept in the clear is sealed
// when a shop starts. A shop started with another secret key cannot open it, so the operator is
// refused (and the log says why), and `streamcart operator reset` gives the way back: a new setup
// link, the old password and authenticator forgotten, every session ended.
func TestOperatorTOTPSecretSealedAndReset(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		keyA := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{'a'}, 32))
		keyB := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{'b'}, 32))
		c := newConsole(t, func(cfg *app.Config) { cfg.SecretKey = keyA })
		ctx, st := t.Context(), c.app.Store()
		const email = "owner@example.com"
		secret := c.enrol(email, operator.RoleOwner)
		stored := func() string {
			t.Helper()
			o, err := st.OperatorByEmail(ctx, email)
			if err != nil {
				t.Fatal(err)
			}
			return o.TOTPSecret
		}
		if v := stored(); !strings.HasPrefix(v, "sealed:v1:") || strings.Contains(v, secret) {
			t.Fatalf("stored TOTP secret %q: want it sealed, without the secret %s", v, secret)
		}
		first := c.signIn(email, secret)

		// Kept in the clear by an earlier version: a shop starting on the database seals it.
		o, _ := st.OperatorByEmail(ctx, email)
		if ok, err := st.ReplaceTOTPSecret(ctx, o.ID, o.TOTPSecret, secret); err != nil || !ok {
			t.Fatalf("put the clear secret back: %v %v", ok, err)
		}
		c.signIn(email, secret) // a clear secret still signs in
		openShop(t, c.cfg)
		if v := stored(); !strings.HasPrefix(v, "sealed:v1:") || strings.Contains(v, secret) {
			t.Fatalf("after a start, stored TOTP secret %q: want it sealed", v)
		}
		c.signIn(email, secret)

		// Another secret key cannot open it: the operator is refused with the right code.
		cfgB := c.cfg
		cfgB.SecretKey = keyB
		b := consoleOf(openShop(t, cfgB), c.clock)
		code, _ := operator.Code(secret, c.clock.Now())
		_, err := b.session.Create(ctx, &genadminsession.CreatePayload{Email: email, Password: opPassword, Otp: code})
		wantErr(t, err, "invalid_credentials", "")

		// Reset: no sign-in until set up again, the sessions ended, then a new authenticator works.
		inv, err := b.app.Operators().Reset(ctx, email)
		if err != nil || inv.Operator.Status != operator.StatusPending {
			t.Fatalf("reset: %+v %v", inv, err)
		}
		_, err = c.session.Get(ctx, &genadminsession.GetPayload{Session: &first.cookie})
		wantErr(t, err, "unauthorized", "")
		c.clock.Add(30 * time.Second)
		code, _ = operator.Code(secret, c.clock.Now())
		_, err = c.session.Create(ctx, &genadminsession.CreatePayload{Email: email, Password: opPassword, Otp: code})
		wantErr(t, err, "invalid_credentials", "")
		en, err := b.session.Setup(ctx, &genadminsession.SetupPayload{Token: inv.Token, Password: "another-password-1"})
		if err != nil || en.TotpSecret == secret {
			t.Fatalf("setup after the reset: %+v %v, want a new secret", en, err)
		}
		code, _ = operator.Code(en.TotpSecret, c.clock.Now())
		if err := b.session.ConfirmSetup(ctx, &genadminsession.ConfirmSetupPayload{Token: inv.Token, Otp: code}); err != nil {
			t.Fatalf("confirm after the reset: %v", err)
		}
		c.clock.Add(30 * time.Second)
		code, _ = operator.Code(en.TotpSecret, c.clock.Now())
		if _, err := b.session.Create(ctx, &genadminsession.CreatePayload{Email: email, Password: "another-password-1", Otp: code}); err != nil {
			t.Fatalf("sign-in after the reset: %v", err)
		}
		// The reset's link works once; an unknown operator cannot be reset.
		_, err = b.session.Setup(ctx, &genadminsession.SetupPayload{Token: inv.Token, Password: "another-password-2"})
		wantErr(t, err, "invalid_setup_token", "")
		if _, err := b.app.Operators().Reset(ctx, "nobody@example.com"); !errors.Is(err, operator.ErrNotFound) {
			t.Fatalf("reset of an unknown operator: %v, want ErrNotFound", err)
		}
	})
}
