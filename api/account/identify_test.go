package account_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

func TestMain(m *testing.M) {
	account.PasswordCost = bcrypt.MinCost // the real bcrypt, at its cheapest: these tests count its runs
	os.Exit(m.Run())
}

// countingHasher does the real bcrypt work and counts it.
type countingHasher struct{ hashes, compares atomic.Int64 }

func (h *countingHasher) Hash(password string) (string, error) {
	h.hashes.Add(1)
	return account.BcryptHasher.Hash(password)
}

func (h *countingHasher) Compare(hash, password string) error {
	h.compares.Add(1)
	return account.BcryptHasher.Compare(hash, password)
}

// take returns the counts since the last call and starts again from zero.
func (h *countingHasher) take() (hashes, compares int64) {
	return h.hashes.Swap(0), h.compares.Swap(0)
}

// missingClients is a store whose reads by email find nobody, as when a sign-in for the same
// new email creates the client between this one's read and its write.
type missingClients struct{ store.Backend }

func (missingClients) ClientByEmail(context.Context, string) (account.Client, error) {
	return account.Client{}, errors.New("no such client")
}

func newService(t *testing.T, st account.Store) (*account.Service, *countingHasher) {
	t.Helper()
	key, err := authz.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	signer, err := authz.NewSigner(key)
	if err != nil {
		t.Fatal(err)
	}
	s := account.New(st, signer)
	h := &countingHasher{}
	account.SetHasher(s, h)
	return s, h
}

// TestIdentifyRunsBcryptOnce: a sign-in with a password costs one bcrypt computation whatever the
// email — a comparison for a client with a password, a hash for a new client (or one without a
// password) — so neither a second computation nor a timing difference between accounts comes
// back unnoticed. Without a password there is none.
func TestIdentifyRunsBcryptOnce(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		st := b.Open(t)
		s, h := newService(t, st)
		ctx := t.Context()
		steps := []struct {
			name, email, password string
			err                   error
			scope                 authz.Scope
			hashes, compares      int64
		}{
			{"new client with a password", "Ana@Example.com ", "correct horse", nil, authz.ScopeProven, 1, 0},
			{"its password", "ana@example.com", "correct horse", nil, authz.ScopeProven, 0, 1},
			{"a wrong password", "ana@example.com", "wrong horse", account.ErrInvalidCredentials, "", 0, 1},
			{"no password", "ana@example.com", "", nil, authz.ScopeEmail, 0, 0},
			{"new client without a password", "bo@example.com", "", nil, authz.ScopeEmail, 0, 0},
			{"a password for a client without one", "bo@example.com", "any horse", account.ErrInvalidCredentials, "", 1, 0},
			{"too long a password", "ana@example.com", strings.Repeat("x", 73), bcrypt.ErrPasswordTooLong, "", 0, 0},
		}
		for _, step := range steps {
			id, err := s.Identify(ctx, step.email, step.password)
			hashes, compares := h.take()
			if !errors.Is(err, step.err) || (err == nil && id.Claims.Scope != step.scope) {
				t.Errorf("%s: scope %q, err %v; want scope %q, err %v", step.name, id.Claims.Scope, err, step.scope, step.err)
			}
			if hashes != step.hashes || compares != step.compares {
				t.Errorf("%s: %d hashes and %d comparisons, want %d and %d", step.name, hashes, compares, step.hashes, step.compares)
			}
		}
		// The new client kept its password; the one made without a password was not given one.
		if ana, err := st.ClientByEmail(ctx, "ana@example.com"); err != nil || bcrypt.CompareHashAndPassword([]byte(ana.PasswordHash), []byte("correct horse")) != nil {
			t.Errorf("ana: %+v, %v; want her password stored", ana, err)
		}
		if bo, err := st.ClientByEmail(ctx, "bo@example.com"); err != nil || bo.PasswordHash != "" {
			t.Errorf("bo: %+v, %v; want no password", bo, err)
		}
	})
}

// TestIdentifyRaceForANewEmail: when the client appears between the read and the write (another
// sign-in created it), the password is still checked against the stored one.
func TestIdentifyRaceForANewEmail(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		st := b.Open(t)
		first, _ := newService(t, st)
		if _, err := first.Identify(t.Context(), "cy@example.com", "first horse"); err != nil {
			t.Fatal(err)
		}
		s, h := newService(t, missingClients{st})
		if _, err := s.Identify(t.Context(), "cy@example.com", "second horse"); !errors.Is(err, account.ErrInvalidCredentials) {
			t.Fatalf("another password for the client created meanwhile: %v, want ErrInvalidCredentials", err)
		}
		id, err := s.Identify(t.Context(), "cy@example.com", "first horse")
		if err != nil || id.Claims.Scope != authz.ScopeProven {
			t.Fatalf("its password: %+v, %v; want a proven session", id.Claims, err)
		}
		if hashes, compares := h.take(); hashes != 2 || compares != 2 {
			t.Fatalf("%d hashes and %d comparisons, want 2 and 2 (the race costs a second computation)", hashes, compares)
		}
	})
}
