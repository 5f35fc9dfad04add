// Package config reads a command's settings: each one a flag over its STREAMCART_* environment
// variable over its default, checked strictly. A value that does not parse stops the command
// with one line naming the variable (or flag), the value and what is expected; a setting marked
// secret is also read from the file its STREAMCART_*_FILE variable names and never printed.
//
// Adding a setting is one call on the command's Set (String, Int, Duration, …): its flag, its
// variable, its -h line and its row in the documented table (Markdown) all come from that call.
package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// EnvPrefix starts every setting's environment variable.
const EnvPrefix = "STREAMCART_"

// Setting is one documented setting.
type Setting struct {
	Name    string // flag name, "job-poll"; the variable is EnvPrefix + upper snake case
	Env     string // "STREAMCART_JOB_POLL"
	Default string // as documented; "" is none
	Usage   string // what it does
	Expect  string // what a valid value looks like, "a duration such as 500ms or 2m"
	// Secret settings also have an Env+"_FILE" form and their values are never printed;
	// EnvOnly ones have no flag (a flag's value is visible to every user in the process list).
	Secret, EnvOnly bool

	set     func(string) error
	emptyOK bool // an empty variable is a value (strings), not "unset" (numbers, durations…)
	given   bool
	// text is the value in force as given (the default's until a variable or flag sets it),
	// source where it came from, file the _FILE variable's path a secret was read from.
	text, file string
	source     Source
}

// Source is where a setting's value in force comes from.
type Source string

const (
	SourceDefault     Source = "default"
	SourceEnvironment Source = "environment" // its variable, or its _FILE variable's file
	SourceFlag        Source = "flag"
)

// Given reports whether the setting came from its variable, its file or its flag.
func (st *Setting) Given() bool { return st.given }

// MarkSecret gives the setting a _FILE form and keeps its value out of messages.
func (st *Setting) MarkSecret() *Setting { st.Secret = true; return st }

// Documented replaces the documented default, for one computed at run time.
func (st *Setting) Documented(def string) *Setting { st.Default = def; return st }

// Set is the settings and command-line flags of one command.
type Set struct {
	name     string
	fs       *flag.FlagSet
	settings []*Setting
	args     []string
	// Lookup reads the environment; tests replace it.
	Lookup func(string) (string, bool)
	// ReadFile reads a secret's file; tests replace it.
	ReadFile func(string) ([]byte, error)
}

// New starts the settings of the command name ("serve", "mail list").
func New(name string) *Set {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &Set{name: name, fs: fs, Lookup: os.LookupEnv, ReadFile: os.ReadFile}
}

// Flags is the command's flag set, for its own flags that have no variable (--limit, --since).
func (s *Set) Flags() *flag.FlagSet { return s.fs }

// Settings are the settings in the order they were declared.
func (s *Set) Settings() []*Setting { return s.settings }

// Setting is the setting declared as name; nil if none.
func (s *Set) Setting(name string) *Setting {
	for _, st := range s.settings {
		if st.Name == name {
			return st
		}
	}
	return nil
}

// Args are the positional arguments Parse found among the flags.
func (s *Set) Args() []string { return s.args }

// Func declares a setting parsed by set; def is its default, already in force.
func (s *Set) Func(name, def, expect, usage string, set func(string) error) *Setting {
	st := &Setting{Name: name, Env: EnvPrefix + strings.ToUpper(strings.ReplaceAll(name, "-", "_")),
		Default: def, Usage: usage, Expect: expect, set: set, text: def, source: SourceDefault}
	s.settings = append(s.settings, st)
	v := &value{st: st, text: def}
	if expect == expectBool {
		s.fs.Var(boolValue{v}, name, usage)
	} else {
		s.fs.Var(v, name, usage)
	}
	return st
}

// Secret declares a secret read only from its variable or its _FILE form.
func (s *Set) Secret(dst *string, name, usage string) *Setting {
	st := &Setting{Name: name, Env: EnvPrefix + strings.ToUpper(strings.ReplaceAll(name, "-", "_")),
		Usage: usage, Secret: true, EnvOnly: true, emptyOK: true, source: SourceDefault,
		set: func(v string) error { *dst = v; return nil }}
	s.settings = append(s.settings, st)
	return st
}

// String declares a free-form setting; an empty variable is an empty value.
func (s *Set) String(dst *string, name, def, usage string) *Setting {
	*dst = def
	st := s.Func(name, def, "", usage, func(v string) error { *dst = v; return nil })
	st.emptyOK = true
	return st
}

// Choice declares a setting that is one of values.
func (s *Set) Choice(dst *string, name, def string, values []string, usage string) *Setting {
	*dst = def
	return s.Func(name, def, "one of "+strings.Join(values, ", "), usage, func(v string) error {
		if !slices.Contains(values, v) {
			return errInvalid
		}
		*dst = v
		return nil
	})
}

// Int declares a whole number.
func (s *Set) Int(dst *int, name string, def int, usage string) *Setting {
	*dst = def
	return s.Func(name, strconv.Itoa(def), "a whole number such as 20", usage, func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil {
			return errInvalid
		}
		*dst = n
		return nil
	})
}

const expectBool = "true or false"

// Bool declares a yes/no setting: true or false (also 1/0, t/f as Go's strconv reads them).
func (s *Set) Bool(dst *bool, name string, def bool, usage string) *Setting {
	*dst = def
	return s.Func(name, strconv.FormatBool(def), expectBool, usage, func(v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return errInvalid
		}
		*dst = b
		return nil
	})
}

// Duration declares a positive duration with its unit (500ms, 30s, 5m, 24h).
func (s *Set) Duration(dst *time.Duration, name string, def time.Duration, usage string) *Setting {
	*dst = def
	return s.Func(name, def.String(), "a positive duration with a unit such as 500ms, 30s or 5m", usage, func(v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return errInvalid
		}
		*dst = d
		return nil
	})
}

// URL declares an absolute URL with one of schemes and a host; "" is none.
func (s *Set) URL(dst *string, name, def, usage string, schemes ...string) *Setting {
	*dst = def
	want := make([]string, len(schemes))
	for i, sc := range schemes {
		want[i] = sc + "://"
	}
	st := s.Func(name, def, "an absolute URL starting with "+strings.Join(want, " or "), usage, func(v string) error {
		if v != "" {
			u, err := url.Parse(v)
			if err != nil || !slices.Contains(schemes, u.Scheme) || u.Host == "" {
				return errInvalid
			}
		}
		*dst = v
		return nil
	})
	st.emptyOK = true
	return st
}

// Addr declares a listen address, host:port (the host may be empty: all interfaces).
func (s *Set) Addr(dst *string, name, def, usage string) *Setting {
	*dst = def
	return s.Func(name, def, "host:port such as 127.0.0.1:8080 or :8080", usage, func(v string) error {
		_, port, err := net.SplitHostPort(v)
		if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 0 || n > 65535 {
			return errInvalid
		}
		*dst = v
		return nil
	})
}

// Prefixes declares a comma list of CIDRs (10.0.0.0/8,::1/128); a bare address is its own
// one-address range. "" is none.
func (s *Set) Prefixes(dst *[]netip.Prefix, name, def, usage string) *Setting {
	parse := func(v string) error {
		var out []netip.Prefix
		for _, item := range strings.Split(v, ",") {
			if item = strings.TrimSpace(item); item == "" {
				continue
			}
			p, err := netip.ParsePrefix(item)
			if err != nil {
				ip, aerr := netip.ParseAddr(item)
				if aerr != nil || ip.Zone() != "" {
					return errInvalid
				}
				p = netip.PrefixFrom(ip, ip.BitLen())
			}
			out = append(out, p.Masked())
		}
		*dst = out
		return nil
	}
	if err := parse(def); err != nil {
		panic(fmt.Sprintf("config: default of %s: %q", name, def))
	}
	st := s.Func(name, def, "a comma list of CIDRs such as 10.0.0.0/8,127.0.0.1/32", usage, parse)
	st.emptyOK = true
	return st
}

var errInvalid = errors.New("invalid")

// ErrHelp is returned by Parse after -h printed the command's usage.
var ErrHelp = flag.ErrHelp

// Parse reads every setting's variable (and secret file), then args' flags, and reports the
// first value that does not parse. -h writes the usage to out and returns ErrHelp.
func (s *Set) Parse(args []string, out io.Writer) error {
	for _, st := range s.settings {
		if err := s.fromEnv(st); err != nil {
			return err
		}
	}
	// Flags may come before or after positional arguments (mail show ID --db …).
	for rest := args; ; {
		err := s.fs.Parse(rest)
		if errors.Is(err, flag.ErrHelp) {
			s.Usage(out)
			return ErrHelp
		}
		if err != nil {
			return fmt.Errorf("%s: %w (-h lists the flags)", s.name, err)
		}
		if s.fs.NArg() == 0 {
			break
		}
		s.args, rest = append(s.args, s.fs.Arg(0)), s.fs.Args()[1:]
	}
	s.fs.Visit(func(f *flag.Flag) {
		if v, ok := f.Value.(*value); ok {
			v.st.given = true
		} else if b, ok := f.Value.(boolValue); ok {
			b.st.given = true
		}
	})
	return nil
}

func (s *Set) fromEnv(st *Setting) error {
	v, ok := s.Lookup(st.Env)
	file := ""
	if st.Secret {
		path, fromFile := s.Lookup(st.Env + "_FILE")
		if fromFile && path != "" {
			if ok && v != "" {
				return fmt.Errorf("%s and %s_FILE are both set: keep one", st.Env, st.Env)
			}
			b, err := s.ReadFile(path)
			if err != nil {
				return fmt.Errorf("%s_FILE=%q: cannot read it: %w", st.Env, path, errors.Unwrap(err))
			}
			// Editors and `echo` end files with a line break that is no part of the secret.
			v, ok, file = strings.TrimRight(string(b), "\r\n"), true, path
			if v == "" {
				return fmt.Errorf("%s_FILE=%q: the file is empty: want the secret in it", st.Env, path)
			}
		}
	}
	if !ok || (v == "" && !st.emptyOK) {
		return nil
	}
	if err := st.set(v); err != nil {
		if st.Secret {
			return fmt.Errorf("%s is invalid (value not shown): want %s", st.Env, st.Expect)
		}
		return fmt.Errorf("%s=%q: want %s", st.Env, v, st.Expect)
	}
	st.given, st.text, st.file, st.source = true, v, file, SourceEnvironment
	return nil
}

// value is a setting's flag.
type value struct {
	st   *Setting
	text string
}

func (v *value) String() string {
	if v == nil || v.st == nil || v.st.Secret {
		return ""
	}
	return v.text
}

func (v *value) Set(s string) error {
	if err := v.st.set(s); err != nil {
		return errors.New("want " + v.st.Expect)
	}
	v.text = s
	v.st.text, v.st.file, v.st.source = s, "", SourceFlag
	return nil
}

// boolValue lets a yes/no flag stand alone (--examples).
type boolValue struct{ *value }

func (boolValue) IsBoolFlag() bool { return true }

// Usage writes the command's flags, each with its variable and default, and its variable-only
// secrets.
func (s *Set) Usage(w io.Writer) {
	fmt.Fprintf(w, "Usage of streamcart %s:\n", s.name)
	// Settings in the order they were declared (related ones together), then the command's own.
	for _, st := range s.settings {
		if st.EnvOnly {
			continue
		}
		fmt.Fprintf(w, "  --%s\n\t%s (%s", st.Name, st.Usage, st.Env)
		if st.Secret {
			fmt.Fprintf(w, " or %s_FILE", st.Env)
		} else if st.Default != "" {
			fmt.Fprintf(w, ", default %s", st.Default)
		}
		fmt.Fprintln(w, ")")
	}
	s.fs.VisitAll(func(f *flag.Flag) {
		if st := s.Setting(f.Name); st != nil {
			return
		}
		fmt.Fprintf(w, "  --%s\n\t%s", f.Name, f.Usage)
		if f.DefValue != "" && f.DefValue != "false" {
			fmt.Fprintf(w, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
	first := true
	for _, st := range s.settings {
		if !st.EnvOnly {
			continue
		}
		if first {
			fmt.Fprintln(w, "Environment only (secrets; each also as NAME_FILE, a file holding it):")
			first = false
		}
		fmt.Fprintf(w, "  %s\n\t%s\n", st.Env, st.Usage)
	}
}

// Markdown writes settings as one table: variable, flag, default, value expected, meaning.
func Markdown(w io.Writer, settings []*Setting) {
	fmt.Fprintln(w, "| variable | flag | default | value | meaning |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	for _, st := range settings {
		env := "`" + st.Env + "`"
		if st.Secret {
			env += " or `" + st.Env + "_FILE`"
		}
		fl := "–"
		if !st.EnvOnly {
			fl = "`--" + st.Name + "`"
		}
		def := "–"
		if st.Default != "" && !st.Secret {
			def = cell(st.Default)
			if !strings.Contains(def, " ") {
				def = "`" + def + "`"
			}
		}
		expect := "text"
		if st.Expect != "" {
			expect = st.Expect
		}
		if st.Secret {
			expect = "secret, " + expect
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", env, fl, def, cell(expect), cell(st.Usage))
	}
}
