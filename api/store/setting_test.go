package store_test

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/streamcart/streamcart/api/store"
)

func TestSettingsReadWrite(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		if _, err := s.Setting(t.Context(), "catalog"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("Setting(absent) err = %v, want ErrNotFound", err)
		}
		binary := []byte{0, 1, 0xff, 0xfe, '\n', 0}
		for _, v := range [][]byte{[]byte("first"), binary} {
			if err := s.PutSetting(t.Context(), "catalog", v); err != nil {
				t.Fatal(err)
			}
			got, err := s.Setting(t.Context(), "catalog")
			if err != nil || !bytes.Equal(got, v) {
				t.Fatalf("Setting = %q, %v; want %q", got, err, v)
			}
		}
		if got, err := s.SettingOnce(t.Context(), "catalog", []byte("ignored")); err != nil || !bytes.Equal(got, binary) {
			t.Fatalf("SettingOnce over a stored value = %q, %v; want the stored %q", got, err, binary)
		}
	})
}

func TestSettingOnceConcurrentStartsAgree(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		const n = 16
		got := make([][]byte, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				v, err := s.SettingOnce(t.Context(), "session_hmac_key", fmt.Appendf(nil, "key-%d", i))
				if err != nil {
					t.Error(err)
				}
				got[i] = v
			})
		}
		wg.Wait()
		stored, err := s.Setting(t.Context(), "session_hmac_key")
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range got {
			if !bytes.Equal(v, stored) {
				t.Fatalf("start %d got %q, the store holds %q", i, v, stored)
			}
		}
	})
}

// Forty updates of one setting at once each see the one before: none is lost. A failing change
// writes nothing.
func TestUpdateSettingConcurrentUpdatesAllCount(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		const n = 40
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				_, err := s.UpdateSetting(t.Context(), "counter", func(old []byte, ok bool) ([]byte, error) {
					count := 0
					if ok {
						if _, err := fmt.Sscan(string(old), &count); err != nil {
							return nil, err
						}
					}
					return fmt.Appendf(nil, "%d", count+1), nil
				})
				if err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if got, err := s.Setting(t.Context(), "counter"); err != nil || string(got) != fmt.Sprint(n) {
			t.Fatalf("after %d updates the setting is %q, %v", n, got, err)
		}
		refused := errors.New("refused")
		if _, err := s.UpdateSetting(t.Context(), "counter", func([]byte, bool) ([]byte, error) { return []byte("0"), refused }); !errors.Is(err, refused) {
			t.Fatalf("a failing change: %v, want %v", err, refused)
		}
		if got, _ := s.Setting(t.Context(), "counter"); string(got) != fmt.Sprint(n) {
			t.Fatalf("a failing change wrote %q", got)
		}
	})
}
