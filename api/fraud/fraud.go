// Package fraud holds the offline order checks run at order time.
package fraud

import (
	"slices"
	"strconv"
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

// The checks' names, as the console shows them.
const (
	RuleBannedDomain = "banned-email-domain"
	RuleOrdersPerIP  = "orders-per-ip"
)

// Fired is one check that held an order: what it saw (Value) against what it allows (Limit).
type Fired struct {
	Rule  string `json:"rule"`
	Value string `json:"value"`
	Limit string `json:"limit"`
}

// Verdict says whether an order is held, and why (for the logs and the console, never for the
// buyer): Rules are every check that fired.
type Verdict struct {
	Fraud  bool
	Reason string
	Rules  []Fired
}

// Check judges an order from email, placed when ordersFromIP orders (this one excluded) came from
// the same IP in the last 24 hours.
func (r Rules) Check(email string, ordersFromIP int) Verdict {
	var v Verdict
	var reasons []string
	domain := strings.ToLower(email[strings.LastIndex(email, "@")+1:])
	if slices.Contains(r.BannedDomains, domain) {
		reasons = append(reasons, "banned email domain "+domain)
		v.Rules = append(v.Rules, Fired{Rule: RuleBannedDomain, Value: domain, Limit: "banned"})
	}
	if r.MaxOrdersPerIP > 0 && ordersFromIP >= r.MaxOrdersPerIP {
		reasons = append(reasons, "too many orders from this IP in 24 h")
		v.Rules = append(v.Rules, Fired{Rule: RuleOrdersPerIP, Value: strconv.Itoa(ordersFromIP), Limit: strconv.Itoa(r.MaxOrdersPerIP)})
	}
	v.Fraud, v.Reason = len(v.Rules) > 0, strings.Join(reasons, "; ")
	return v
}
