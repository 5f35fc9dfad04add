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

// brokenReads is a store whose reads by email fail, as when the database is unreachable.
type brokenReads struct{ store.Backend }

func (brokenReads) ClientByEmail(context.Context, string) (account.Client, error) {
	return account.Client{}, errors.New("connection refused")
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
	s := account.New(st, signer, nil)
	h := &countingHasher{}
	account.SetHasher(s, h)
	return s, h
}

// TestIdentifyRunsBcryptOnce: a sign-in with a password costs one bcrypt comparison whatever the
// email — an unknown one, a client without a password, a wrong or a right password — and answers
// alike for every refusal, so neither the answer nor its time tells who is a client. A password
// never creates a client nor becomes one's. Without a password there is no bcrypt work.
func TestIdentifyRunsBcryptOnce(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		st := b.Open(t)
		s, h := newService(t, st)
		ctx := t.Context()
		type step struct {
			name, email, password string
			err                   error
			scope                 authz.Scope
			compares              int64
		}
		run := func(steps []step) {
			t.Helper()
			for _, step := range steps {
				id, err := s.Identify(ctx, step.email, step.password)
				hashes, compares := h.take()
				if !errors.Is(err, step.err) || (err == nil && id.Claims.Scope != step.scope) {
					t.Errorf("%s: scope %q, err %v; want scope %q, err %v", step.name, id.Claims.Scope, err, step.scope, step.err)
				}
				if hashes != 0 || compares != step.compares {
					t.Errorf("%s: %d hashes and %d comparisons, want 0 and %d", step.name, hashes, compares, step.compares)
				}
				if err == nil && !strings.HasPrefix(id.UserID, "usr_") {
					t.Errorf("%s: user id %q, want usr_…", step.name, id.UserID)
				}
			}
		}
		run([]step{
			{"an unknown email with a password", "Ana@Example.com ", "correct horse", account.ErrInvalidCredentials, "", 1},
			{"no password: the client is made", "ana@example.com", "", nil, authz.ScopeEmail, 0},
			{"a password for a client without one", "ana@example.com", "correct horse", account.ErrInvalidCredentials, "", 1},
		})
		if _, err := st.ClientByEmail(ctx, "nobody@example.com"); !errors.Is(err, account.ErrNotFound) {
			t.Fatalf("a refused sign-in made a client: %v", err)
		}
		if ana, err := st.ClientByEmail(ctx, "ana@example.com"); err != nil || ana.PasswordHash != "" {
			t.Fatalf("ana: %+v, %v; want no password", ana, err)
		}
		hash, err := account.BcryptHasher.Hash("correct horse")
		if err != nil {
			t.Fatal(err)
		}
		ana, _ := st.ClientByEmail(ctx, "ana@example.com")
		if err := st.SetPasswordHash(ctx, ana.ID, hash); err != nil {
			t.Fatal(err)
		}
		run([]step{
			{"its password", "ana@example.com", "correct horse", nil, authz.ScopeProven, 1},
			{"a wrong password", "ana@example.com", "wrong horse", account.ErrInvalidCredentials, "", 1},
			{"too long a password", "ana@example.com", strings.Repeat("x", 73), bcrypt.ErrPasswordTooLong, "", 0},
		})
	})
}

// TestIdentifyStoreFailure: a failed read is an error of its own, never a refusal that would
// blame the buyer's password.
func TestIdentifyStoreFailure(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		s, _ := newService(t, brokenReads{b.Open(t)})
		_, err := s.Identify(t.Context(), "cy@example.com", "any horse")
		if err == nil || errors.Is(err, account.ErrInvalidCredentials) {
			t.Fatalf("err = %v, want the store's error", err)
		}
	})
}
