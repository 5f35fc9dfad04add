package app_test

import (
	"testing"

	genaudit "github.com/streamcart/streamcart/gen/admin_audit"
)

// auditArgs are the parts GET /admin/audit sends with the successful entries of action on
// target (any target when ""), newest first.
func (c *console) auditArgs(t *testing.T, s operatorSession, action, target string) [][]string {
	t.Helper()
	p := &genaudit.ListPayload{Session: &s.cookie, Action: &action, Limit: 50}
	if target != "" {
		p.Target = &target
	}
	res, err := c.clientsOf().audit.List(t.Context(), p)
	if err != nil {
		t.Fatalf("GET /admin/audit?action=%s&target=%s: %v", action, target, err)
	}
	var out [][]string
	for _, e := range res.Entries {
		if e.Result == "ok" {
			out = append(out, e.Args)
		}
	}
	return out
}
