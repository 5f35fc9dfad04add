package faulttest_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

const clients = 16

// TestOneOrderPerKeyAcrossReplicas: 16 buyers place 200 orders, each sent at once to both
// replicas under the same idempotency key. Both answers name one order, and the database holds
// exactly 200 orders, each whole (invoice, service, expiry job).
func TestOneOrderPerKeyAcrossReplicas(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	reps := []*replica{c.replica("a"), c.replica("b")}
	bs := buyers(t, reps[0].base, clients)
	const orders = 200
	var wg sync.WaitGroup
	errs := make(chan error, orders)
	for i, b := range bs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := i; k < orders; k += clients {
				key := fmt.Sprintf("key-%d", k)
				var ids [2]string
				var pair sync.WaitGroup
				for j, r := range reps {
					pair.Add(1)
					go func() {
						defer pair.Done()
						o, err := b.order(t.Context(), r.base, key)
						if err != nil {
							errs <- err
							return
						}
						ids[j] = o.OrderID
					}()
				}
				pair.Wait()
				if ids[0] != ids[1] {
					errs <- fmt.Errorf("%s key %s: replica a answered %q, b %q", b.email, key, ids[0], ids[1])
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := c.count(`SELECT COUNT(*) FROM orders`); n != orders {
		t.Fatalf("orders = %d, want %d (one per key)", n, orders)
	}
	if n := c.count(`SELECT COUNT(DISTINCT client_id::text || ':' || idempotency_key) FROM orders`); n != orders {
		t.Fatalf("distinct keys = %d, want %d", n, orders)
	}
	if n := c.count(`SELECT COUNT(*) FROM jobs WHERE kind = 'expire'`); n != orders {
		t.Fatalf("expiry jobs = %d, want %d", n, orders)
	}
	if a := c.audit(); a.Services != orders || a.Paid != 0 {
		t.Fatalf("audit: %s; want %d services, nothing paid", a, orders)
	}
}

// TestSettleThroughBothReplicasAtOnce pays every invoice through both replicas at the same
// moment: each invoice is settled once (one 303, one 409) and provisioned once.
func TestSettleThroughBothReplicasAtOnce(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	reps := []*replica{c.replica("a"), c.replica("b")}
	bs := buyers(t, reps[1].base, clients)
	type placed struct {
		b *buyer
		o orderResult
	}
	var all []placed
	for i := range 48 {
		b := bs[i%clients]
		o, err := b.order(t.Context(), reps[i%2].base, fmt.Sprintf("settle-%d", i))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, placed{b, o})
	}
	var wg sync.WaitGroup
	codes := make([][2]int, len(all))
	start := make(chan struct{})
	for i, p := range all {
		for j, r := range reps {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				code, err := p.b.pay(t.Context(), r.base, p.o.PaymentURL)
				if err != nil {
					t.Error(err)
				}
				codes[i][j] = code
			}()
		}
	}
	close(start)
	wg.Wait()
	for i, cc := range codes {
		if !(cc == [2]int{http.StatusSeeOther, http.StatusConflict} || cc == [2]int{http.StatusConflict, http.StatusSeeOther}) {
			t.Errorf("order %s: pay answered %v, want one 303 and one 409", all[i].o.OrderID, cc)
		}
	}
	c.settled()
	for _, p := range all {
		got, err := p.b.getOrder(t.Context(), reps[0].base, p.o.OrderID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != "active" {
			t.Errorf("order %s: %s, want active", p.o.OrderID, got.Status)
		}
	}
	a := c.audit()
	if a.Paid != len(all) || a.Active != len(all) || a.PanelLines != len(all) {
		t.Fatalf("audit: %s; want %d paid, active and panel lines", a, len(all))
	}
	if n := c.count(`SELECT COUNT(*) FROM jobs WHERE kind = 'provision'`); n != len(all) {
		t.Fatalf("provisioning jobs = %d, want %d", n, len(all))
	}
}

// TestKillReplicasDuringOrders is the crash trial: 16 buyers order and pay through two replicas
// while one replica after another is killed with SIGKILL at a random moment and restarted. A
// request without an answer is repeated on the other replica (the same idempotency key, the same
// payment page). Afterwards every order a buyer saw paid is active exactly once and nothing is
// half-written. STREAMCART_SOAK=<duration> (make soak) runs it for that long and prints the
// counts; otherwise it kills 4 times.
func TestKillReplicasDuringOrders(t *testing.T) {
	t.Parallel()
	soak, err := soakDuration()
	if err != nil {
		t.Fatal(err)
	}
	c := newCluster(t)
	reps := []*replica{c.replica("a"), c.replica("b")}
	bs := buyers(t, reps[0].base, clients)

	var (
		stop               atomic.Bool
		placed, paid, kept atomic.Int64
		retried            atomic.Int64
		mu                 sync.Mutex
		seenPaid           []string // order ids whose payment a buyer saw accepted
		wg                 sync.WaitGroup
	)
	errs := make(chan error, clients)
	for i, b := range bs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rnd := rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano())))
			for n := 0; !stop.Load(); n++ {
				key := fmt.Sprintf("%s-%d", b.email, n)
				var o orderResult
				err := untilAnswered(t.Context(), rnd, reps, &retried, func(base string) (err error) {
					o, err = b.order(t.Context(), base, key)
					return err
				})
				if err != nil {
					errs <- err
					return
				}
				placed.Add(1)
				if rnd.IntN(5) == 0 { // some orders are never paid: they must stay whole and pending
					kept.Add(1)
					continue
				}
				var code int
				err = untilAnswered(t.Context(), rnd, reps, &retried, func(base string) (err error) {
					code, err = b.pay(t.Context(), base, o.PaymentURL)
					return err
				})
				// 409 after a repeat: the first attempt settled it and died before answering.
				if err == nil && code != http.StatusSeeOther && code != http.StatusConflict {
					err = fmt.Errorf("pay %s: %d", o.OrderID, code)
				}
				if err != nil {
					errs <- err
					return
				}
				paid.Add(1)
				mu.Lock()
				seenPaid = append(seenPaid, o.OrderID)
				mu.Unlock()
			}
		}()
	}

	// The killer: a random replica at a random moment, restarted at once on the same address.
	rnd := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
	kills := 0
	phases := map[string]int{} // order states in flight at the moments of the kills
	deadline := time.Now().Add(soak)
	for kills < 4 || time.Now().Before(deadline) {
		time.Sleep(time.Duration(100+rnd.IntN(600)) * time.Millisecond)
		if len(errs) > 0 {
			break
		}
		r := reps[rnd.IntN(len(reps))]
		r.stop(syscall.SIGKILL)
		kills++
		rows, err := c.db.QueryContext(t.Context(), `SELECT status FROM orders WHERE status IN ('pending', 'paid', 'provisioning') GROUP BY status`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			rows.Scan(&s)
			phases[s]++
		}
		rows.Close()
		r.start()
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	c.settled()
	a := c.audit()
	if int64(a.Orders) != placed.Load() {
		t.Errorf("orders in the database = %d, orders the buyers placed = %d", a.Orders, placed.Load())
	}
	if int64(a.Paid) != paid.Load() {
		t.Errorf("paid invoices = %d, payments the buyers saw accepted = %d", a.Paid, paid.Load())
	}
	mu.Lock()
	lost := 0
	for _, id := range seenPaid {
		if c.count(`SELECT COUNT(*) FROM orders WHERE id = $1 AND status = 'active'`, id) != 1 {
			lost++
		}
	}
	mu.Unlock()
	if lost > 0 {
		t.Errorf("%d orders seen paid are not active", lost)
		a.Lost += lost
	}
	summary := fmt.Sprintf("kills=%d (in flight at the kills: pending %d, paid %d, provisioning %d times) repeated_requests=%d unpaid_kept=%d %s",
		kills, phases["pending"], phases["paid"], phases["provisioning"], retried.Load(), kept.Load(), a)
	t.Log(summary)
	if soak > 0 {
		fmt.Println("soak:", summary)
	}
}

// untilAnswered runs req against a random replica, then against the others in turn, until one
// answers (a replica being killed or restarting gives none).
func untilAnswered(ctx context.Context, rnd *rand.Rand, reps []*replica, retried *atomic.Int64, req func(base string) error) error {
	i := rnd.IntN(len(reps))
	for attempt := 0; ; attempt++ {
		err := req(reps[i%len(reps)].base)
		if !errors.Is(err, errTransport) {
			return err
		}
		retried.Add(1)
		if attempt > 200 {
			return err
		}
		i++
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(10+rnd.IntN(40)) * time.Millisecond):
		}
	}
}

// soakDuration reads STREAMCART_SOAK (a Go duration); zero when unset.
func soakDuration() (time.Duration, error) {
	v := os.Getenv("STREAMCART_SOAK")
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("STREAMCART_SOAK=%q: want a duration such as 5m: %w", v, err)
	}
	return d, nil
}
