// Package faulttest holds the fault trials of a multi-replica Streamcart: its tests start real
// `streamcart serve` processes on one PostgreSQL database (a fresh database per test), drive
// them over HTTP, kill them with SIGKILL at random points, put nginx in front of them, and then
// check the database itself: one order per idempotency key, one provisioning per payment, every
// paid order active exactly once, nothing half-written.
//
// ChaosPanel, the package's one non-test part, is a misbehaving XUI.one panel for soaks in other
// packages (api/app's TestSoakChaoticPanel drives a whole shop on it on the business clock).
//
// The short trials run in `go test ./...`; `make soak` runs the kill trial for minutes
// (STREAMCART_SOAK=<duration>) and prints the counts. PostgreSQL (STREAMCART_TEST_POSTGRES,
// default postgres://postgres@127.0.0.1:5432/test) and nginx are part of every machine and of
// CI, so their absence fails the tests instead of skipping them.
package faulttest
