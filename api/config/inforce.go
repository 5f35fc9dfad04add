package config

import (
	"net/url"
	"strings"
)

// Masked stands for a secret value in InForce.
const Masked = "••••"

// InForce is a setting's value in force, safe to show an operator (the console's Settings).
type InForce struct {
	Name, Env, Flag, Usage string
	// Value is the value in force, masked: a secret's is Masked (empty when unset), a URL's
	// password is Masked, and a secret read from a file is the file's path (Env then names the
	// _FILE variable).
	Value  string
	Source Source
	Secret bool
}

// secretSuffixes are the variable endings whose values are secrets, whether or not the setting
// was declared one.
var secretSuffixes = []string{"SECRET", "KEY", "PASSWORD", "TOKEN"}

// IsSecret reports whether a setting's value must not be shown: declared secret, or its variable
// ends in SECRET, KEY, PASSWORD or TOKEN.
func (st *Setting) IsSecret() bool {
	if st.Secret {
		return true
	}
	for _, s := range secretSuffixes {
		if strings.HasSuffix(st.Env, s) {
			return true
		}
	}
	return false
}

// InForce lists every setting's value in force (after Parse), in declaration order, masked.
func (s *Set) InForce() []InForce {
	out := make([]InForce, 0, len(s.settings))
	for _, st := range s.settings {
		v := InForce{Name: st.Name, Env: st.Env, Usage: st.Usage, Source: st.source, Secret: st.IsSecret()}
		if v.Source == "" {
			v.Source = SourceDefault
		}
		if !st.EnvOnly {
			v.Flag = "--" + st.Name
		}
		switch {
		case st.file != "":
			v.Env, v.Value = st.Env+"_FILE", st.file
		case v.Secret && st.text != "":
			// A URL keeps its scheme, host and path: only the password (and the query, where a
			// token may ride) are hidden. Anything else is hidden whole.
			if u, err := url.Parse(st.text); err == nil && u.Scheme != "" && u.Host != "" {
				v.Value = maskURL(u, true)
			} else {
				v.Value = Masked
			}
		default:
			v.Value = MaskURLPassword(st.text)
		}
		out = append(out, v)
	}
	return out
}

// MaskURLPassword hides the password of a URL with credentials (postgres://user:password@host,
// smtp://user:password@host); any other text is answered as it is.
func MaskURLPassword(text string) string {
	u, err := url.Parse(text)
	if err != nil || u.User == nil {
		return text
	}
	return maskURL(u, false)
}

func maskURL(u *url.URL, query bool) string {
	c := *u
	if c.User != nil {
		if _, ok := c.User.Password(); ok {
			c.User = url.UserPassword(c.User.Username(), "xxxxx")
		}
	}
	if query && c.RawQuery != "" {
		q := c.Query()
		for k := range q {
			if k != "from" && k != "tls" {
				q[k] = []string{"xxxxx"}
			}
		}
		c.RawQuery = q.Encode()
	}
	return strings.ReplaceAll(c.String(), "xxxxx", Masked)
}
