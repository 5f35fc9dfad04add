package app_test

import (
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/operator"
	"github.com/streamcart/streamcart/api/testclock"
	genadminsession "github.com/streamcart/streamcart/gen/admin_session"
)

// TestConsoleOnSecurityTime (issue 26): after `streamcart clock advance` moves business time 40
// days ahead, the console still runs on real time: a code from a real authenticator signs in
// (a code of business time does not), a session opened before the move is still open, and a
// setup link made after it still works; business time itself has moved.
func TestConsoleOnSecurityTime(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		ctx := t.Context()
		secret := c.enrol("owner@example.com", operator.RoleOwner)
		before := c.signIn("owner@example.com", secret)

		const ahead = 40 * 24 * time.Hour
		if _, err := testclock.Advance(ctx, c.cfg.Payment, c.app.Store(), ahead); err != nil {
			t.Fatal(err)
		}
		if moved, err := c.app.RefreshClock(ctx); err != nil || !moved {
			t.Fatalf("refresh the test clock: %v %v", moved, err)
		}
		if got := c.app.Now().Sub(c.clock.Now()); got < ahead-time.Minute {
			t.Fatalf("business time is %v ahead, want %v", got, ahead)
		}

		if _, err := c.session.Get(ctx, &genadminsession.GetPayload{Session: &before.cookie}); err != nil {
			t.Fatalf("the session opened before the move: %v", err)
		}
		businessCode, _ := operator.Code(secret, c.app.Now())
		if _, err := c.session.Create(ctx, &genadminsession.CreatePayload{Email: "owner@example.com", Password: opPassword, Otp: businessCode}); err == nil {
			t.Fatal("a code of the test clock's time signed in")
		}
		c.signIn("owner@example.com", secret) // a code of real time: signs in

		// A setup link made now lives SetupTTL of real time: enrol uses it at once.
		c.enrol("support@example.com", operator.RoleSupport)
	})
}
