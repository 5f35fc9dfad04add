package store_test

import (
	"database/sql"
	"testing"

	"github.com/streamcart/streamcart/api/store/storetest"
)

// TestPoolsKeepTheirConnections: a burst of reads as wide as a pool leaves every connection
// open for the next one. With database/sql's default of two idle connections, SQLite's reader
// pool closed the rest after each burst and opened new ones on the next (each running its
// pragmas and preparing its statements again: a sixth of an order's CPU under 16 clients).
func TestPoolsKeepTheirConnections(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		s := b.Open(t)
		for name, p := range s.(interface{ Pools() map[string]*sql.DB }).Pools() {
			n := p.Stats().MaxOpenConnections
			conns := make([]*sql.Conn, n)
			for i := range conns {
				c, err := p.Conn(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				conns[i] = c
			}
			for _, c := range conns {
				c.Close()
			}
			if st := p.Stats(); st.MaxIdleClosed != 0 || st.Idle != n {
				t.Errorf("pool %s after a burst of %d: %d idle, %d closed for want of idle room", name, n, st.Idle, st.MaxIdleClosed)
			}
		}
	})
}
