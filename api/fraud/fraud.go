// Package fraud holds the offline order checks run at order time.
package fraud

import (
	"slices"
	"strings"
)

// DefaultMaxOrdersPerIP is the spec-less but careful default: 20 orders per IP per 24 hours.
const DefaultMaxOrdersPerIP = 20

// Rules are the configured checks.
type Rules struct {
	MaxOrdersPerIP int      // orders from one IP in 24 h before the next is held; ≤ 0 disables
	BannedDomains  []string // email domains whose orders are held (lowercase)
}

// ParseDomains reads a comma list of email domains.
func ParseDomains(list string) []string {
	var out []string
	for _, d := range strings.Split(list, ",") {
		if d = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(d), "@"))); d != "" {
			out = append(out, d)
		}
	}
	return out
}

// Verdict says whether an order is held, and why (for the logs, never for the buyer).
type Verdict struct {
	Fraud  bool
	Reason string
}

// Check judges an order from email, placed when ordersFromIP orders (this one excluded) came from
// the same IP in the last 24 hours.
func (r Rules) Check(email string, ordersFromIP int) Verdict {
	domain := strings.ToLower(email[strings.LastIndex(email, "@")+1:])
	if slices.Contains(r.BannedDomains, domain) {
		return Verdict{Fraud: true, Reason: "banned email domain " + domain}
	}
	if r.MaxOrdersPerIP > 0 && ordersFromIP >= r.MaxOrdersPerIP {
		return Verdict{Fraud: true, Reason: "too many orders from this IP in 24 h"}
	}
	return Verdict{}
}
