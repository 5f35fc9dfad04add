// Package disposable tells throwaway e-mail addresses (mailinator.com and the like) from others,
// so a shop can refuse them its free trial. The list is not ours: domains.txt is the pinned
// release of a maintained list (see its header and refresh.sh), to which a seller adds domains.
package disposable

//go:generate ./refresh.sh

import (
	_ "embed"
	"strings"
	"sync"

	"golang.org/x/net/idna"
)

//go:embed domains.txt
var domainsFile string

var (
	listOnce sync.Once
	list     map[string]struct{}
)

// listed is the embedded list, each domain in its Normalize form, read once on first use.
func listed() map[string]struct{} {
	listOnce.Do(func() {
		lines := strings.Split(domainsFile, "\n")
		list = make(map[string]struct{}, len(lines))
		for _, l := range lines {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				list[Normalize(l)] = struct{}{}
			}
		}
	})
	return list
}

// Source is the list's provenance: the header lines of domains.txt, without their "# ".
func Source() string {
	var b strings.Builder
	for l := range strings.Lines(domainsFile) {
		if !strings.HasPrefix(l, "#") {
			break
		}
		b.WriteString(strings.TrimPrefix(l, "# "))
	}
	return b.String()
}

// Normalize is the form domains are compared in: lower case, without a trailing dot, in IDNA's
// ASCII form (bücher.example and xn--bcher-kva.example are one domain). A domain IDNA refuses
// is kept lower-cased: it is still compared, never given a pass for being odd.
func Normalize(domain string) string {
	d := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(domain)), ".")
	if a, err := idna.Lookup.ToASCII(d); err == nil {
		return a
	}
	return d
}

// Checker refuses the addresses of some domains: the listed throwaway ones (unless switched
// off) and those a seller adds. A domain refused refuses its subdomains too
// (mail.mailinator.com), as mail to them reaches the same service.
type Checker struct {
	builtIn bool
	extra   map[string]struct{}
}

// New returns a Checker with the built-in list when builtIn, and the extra domains (a seller's,
// which apply either way).
func New(builtIn bool, extra []string) *Checker {
	c := &Checker{builtIn: builtIn, extra: map[string]struct{}{}}
	for _, d := range extra {
		if d = Normalize(d); d != "" {
			c.extra[d] = struct{}{}
		}
	}
	if builtIn {
		listed() // read at start, not on a buyer's request
	}
	return c
}

// Blocked reports whether email's domain, or a domain it is under, is refused.
func (c *Checker) Blocked(email string) bool {
	at := strings.LastIndexByte(email, '@')
	if at < 0 {
		return false
	}
	d := Normalize(email[at+1:])
	for d != "" {
		if _, ok := c.extra[d]; ok {
			return true
		}
		if c.builtIn {
			if _, ok := listed()[d]; ok {
				return true
			}
		}
		i := strings.IndexByte(d, '.')
		if i < 0 {
			break
		}
		d = d[i+1:]
	}
	return false
}

// ParseDomains reads a comma-separated list of domains (STREAMCART_TRIAL_BLOCKED_DOMAINS); an
// "@" before a domain is dropped.
func ParseDomains(v string) []string {
	var out []string
	for _, d := range strings.Split(v, ",") {
		if d = strings.TrimPrefix(strings.TrimSpace(d), "@"); d != "" {
			out = append(out, Normalize(d))
		}
	}
	return out
}
