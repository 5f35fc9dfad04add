package catalog

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Seller is who sells: the legal entity named on the legal pages, the footer and (later) invoices.
type Seller struct {
	Name       string
	Address    string
	Country    string // ISO 3166-1 alpha-2, upper case
	TaxID      string
	Email      string
	SupportURL string
}

// Consent is what the buyer is asked before paying.
type Consent struct {
	// Checkbox asks for a ticked box (terms and renewal) instead of a consent line alone.
	Checkbox bool
}

// LegalPage is one named legal or help page: the seller's own URL, or Markdown files (by
// locale, "" for a single file) that the shop renders at /checkout/legal/{name}.
type LegalPage struct {
	Name string
	URL  string
	// Files maps a locale key ("", "en", "de", "de-de", …) to the file's path, relative to the
	// catalog file, in the catalog's own (slash) spelling.
	Files map[string]string
	// Docs holds the files' Markdown by the same keys once ReadLegal has read them.
	Docs map[string][]byte

	line int // of the entry, for ReadLegal's problems
}

// MaxLegalFile bounds one legal Markdown file: far above any real policy (a long privacy notice is
// ~60 KB), low enough that a stray dump or binary cannot balloon every replica's memory.
const MaxLegalFile = 256 << 10

// LegalNameRe is the spelling of a legal page's name, which becomes a path segment.
var LegalNameRe = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

// legalLocales are the keys a per-locale legal entry may use: the storefront's locales and their
// bare languages ("de" for every German page).
var legalLocales = func() []string {
	out := []string{}
	for _, l := range Locales {
		lang, _, _ := strings.Cut(l, "-")
		for _, k := range []string{lang, l} {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}()

// Doc returns the Markdown of the page for locale and the locale key it was written in: the
// locale itself, its bare language, English, then the first file of the entry. ok is false for
// a URL page or one whose files were not read.
func (l LegalPage) Doc(locale string) (md []byte, key string, ok bool) {
	if len(l.Docs) == 0 {
		return nil, "", false
	}
	loc := strings.ToLower(strings.ReplaceAll(locale, "_", "-"))
	lang, _, _ := strings.Cut(loc, "-")
	for _, k := range []string{loc, lang, "en", ""} {
		if d, found := l.Docs[k]; found {
			return d, k, true
		}
	}
	keys := make([]string, 0, len(l.Docs))
	for k := range l.Docs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return l.Docs[keys[0]], keys[0], true
}

// LegalPage finds a legal page by name.
func (c *Catalog) LegalPage(name string) (LegalPage, bool) {
	for _, l := range c.Legal {
		if l.Name == name {
			return l, true
		}
	}
	return LegalPage{}, false
}

// isLegalURL tells a URL entry from a file path.
func isLegalURL(s string) bool {
	return strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://")
}

// checkLegalPath refuses a file path that could leave the catalog's directory or that no
// operating system spells alike: absolute, a drive or UNC name, backslashes, "..", "." or empty
// segments, control characters; and one that is not Markdown.
func checkLegalPath(p string) error {
	switch {
	case p == "":
		return errors.New("is empty")
	case strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' || r == ':' }):
		return errors.New("must not contain control characters, a backslash or a colon")
	case strings.HasPrefix(p, "/"):
		return errors.New("must be relative to the catalog file, not absolute")
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return errors.New("must not contain empty, . or .. segments: it must stay inside the catalog's folder")
		}
	}
	if ext := strings.ToLower(path.Ext(p)); ext != ".md" && ext != ".markdown" {
		return errors.New("must be a Markdown file (.md)")
	}
	return nil
}

func (p *parser) legal(n *yaml.Node) {
	p.pairs(n, "legal", func(k, v *yaml.Node, pth string) {
		name := k.Value
		if !LegalNameRe.MatchString(name) {
			p.bad(k, pth, "page name %q must be lower-case letters, digits or - (it becomes /checkout/legal/%s)", name, name)
			return
		}
		page := LegalPage{Name: name, line: k.Line}
		one := func(v *yaml.Node, pth, key string) {
			var s string
			p.str(&s)(v, pth)
			s = strings.TrimSpace(s)
			if isLegalURL(s) {
				if key != "" {
					p.bad(v, pth, "a per-locale entry names files; give the page one URL instead")
					return
				}
				if !validURL(s) || strings.ContainsAny(s, " \t\r\n<>\"") {
					p.bad(v, pth, "url %q is not a valid URL", s)
					return
				}
				page.URL = s
				return
			}
			if err := checkLegalPath(s); err != nil {
				p.bad(v, pth, "file %q %v", s, err)
				return
			}
			if page.Files == nil {
				page.Files = map[string]string{}
			}
			page.Files[key] = s
		}
		switch v := deref(v); v.Kind {
		case yaml.MappingNode:
			seen := map[string]bool{}
			for i := 0; i+1 < len(v.Content); i += 2 {
				lk, lv := v.Content[i], v.Content[i+1]
				key := strings.ToLower(strings.ReplaceAll(lk.Value, "_", "-"))
				if !slices.Contains(legalLocales, key) {
					p.bad(lk, pth, "locale %q is not one of %s", lk.Value, strings.Join(legalLocales, ", "))
					continue
				}
				if seen[key] {
					p.bad(lk, pth, "locale %q repeated", lk.Value)
					continue
				}
				seen[key] = true
				one(lv, join(pth, lk.Value), key)
			}
			if len(v.Content) == 0 {
				p.bad(v, pth, "names no file")
			}
		default:
			one(v, pth, "")
		}
		if page.URL != "" || len(page.Files) > 0 {
			p.cat.Legal = append(p.cat.Legal, page)
		}
	})
}

var countryRe = regexp.MustCompile(`^[A-Z]{2}$`)

func (p *parser) seller(n *yaml.Node) {
	var s Seller
	nodes := map[string]*yaml.Node{}
	keep := func(key string, fn func(*yaml.Node, string)) func(*yaml.Node, string) {
		return func(n *yaml.Node, path string) { nodes[key] = n; fn(n, path) }
	}
	p.object(n, "seller", []field{
		{"name", false, p.str(&s.Name)},
		{"address", false, p.str(&s.Address)},
		{"country", false, keep("country", p.str(&s.Country))},
		{"taxId", false, p.str(&s.TaxID)},
		{"email", false, keep("email", p.str(&s.Email))},
		{"supportUrl", false, keep("supportUrl", p.str(&s.SupportURL))},
	})
	s.Country = strings.ToUpper(s.Country)
	if s.Country != "" && !countryRe.MatchString(s.Country) {
		p.bad(nodes["country"], "seller.country", "country %q must be an ISO 3166 alpha-2 code (IE, DE, …)", s.Country)
	}
	if s.Email != "" && (!strings.Contains(s.Email, "@") || strings.ContainsAny(s.Email, " \t\r\n<>\"")) {
		p.bad(nodes["email"], "seller.email", "email %q is not an address", s.Email)
	}
	if s.SupportURL != "" && (!isLegalURL(s.SupportURL) || strings.ContainsAny(s.SupportURL, " \t\r\n<>\"")) {
		p.bad(nodes["supportUrl"], "seller.supportUrl", "supportUrl %q must start with https:// or http://", s.SupportURL)
	}
	for _, f := range []string{s.Name, s.Address, s.TaxID} {
		if strings.ContainsFunc(f, func(r rune) bool { return r < 0x20 && r != '\n' || r == 0x7f }) {
			p.bad(n, "seller", "texts must not contain control characters")
			break
		}
	}
	p.cat.Seller = s
}

func (p *parser) consent(n *yaml.Node) {
	p.object(n, "consent", []field{{"checkbox", false, p.boolean(&p.cat.Consent.Checkbox)}})
}

// LegalReader reads a legal file by its path relative to the catalog file.
type LegalReader func(name string) ([]byte, error)

// DirReader reads legal files inside dir only: through an os.Root, so neither ".." nor a
// symbolic link pointing out of the folder reaches another file.
func DirReader(dir string) LegalReader {
	return func(name string) ([]byte, error) {
		root, err := os.OpenRoot(dir)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		f, err := root.Open(filepath.FromSlash(name))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if st, err := f.Stat(); err != nil {
			return nil, err
		} else if !st.Mode().IsRegular() {
			return nil, errors.New("is not a regular file")
		}
		return readCapped(f)
	}
}

// FSReader reads legal files from fsys (an embedded folder, or files stored with the catalog).
func FSReader(fsys fs.FS) LegalReader {
	return func(name string) ([]byte, error) {
		if !fs.ValidPath(name) {
			return nil, fs.ErrNotExist
		}
		f, err := fsys.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return readCapped(f)
	}
}

// MapReader reads legal files from a map of path → content (the bundle stored with the catalog).
func MapReader(files map[string][]byte) LegalReader {
	return func(name string) ([]byte, error) {
		if b, ok := files[name]; ok {
			return b, nil
		}
		return nil, fs.ErrNotExist
	}
}

func readCapped(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxLegalFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxLegalFile {
		return nil, fmt.Errorf("is larger than %d KiB", MaxLegalFile>>10)
	}
	return b, nil
}

// checkLegalText refuses what is not a text document: invalid UTF-8, NUL and other control
// characters than tab and line ends. A BOM is dropped.
func checkLegalText(b []byte) ([]byte, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if len(b) > MaxLegalFile {
		return nil, fmt.Errorf("is larger than %d KiB", MaxLegalFile>>10)
	}
	if !utf8.Valid(b) {
		return nil, errors.New("is not UTF-8 text")
	}
	if i := bytes.IndexFunc(b, func(r rune) bool { return (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0x7f }); i >= 0 {
		return nil, fmt.Errorf("contains a control character (byte %d)", i)
	}
	return b, nil
}

// ReadLegal reads the Markdown of every legal file entry through read. Every file that is
// missing, too large or not text is a problem of the returned *ValidationError (name labels it
// as Parse's do); the pages read before stay read. c must not be shared yet.
func (c *Catalog) ReadLegal(name string, read LegalReader) error {
	var problems []Problem
	for i := range c.Legal {
		l := &c.Legal[i]
		if len(l.Files) == 0 {
			continue
		}
		keys := make([]string, 0, len(l.Files))
		for k := range l.Files {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			file := l.Files[k]
			where := join("legal", l.Name)
			if k != "" {
				where = join(where, k)
			}
			b, err := read(file)
			if err == nil {
				b, err = checkLegalText(b)
			}
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					err = errors.New("is missing")
				}
				var pe *fs.PathError
				if errors.As(err, &pe) {
					err = pe.Err // the reader's own path would be the absolute one
				}
				problems = append(problems, Problem{Line: l.line, Path: where, Msg: fmt.Sprintf("file %q %v", file, err)})
				continue
			}
			if l.Docs == nil {
				l.Docs = map[string][]byte{}
			}
			l.Docs[k] = b
		}
	}
	if len(problems) > 0 {
		return &ValidationError{Name: name, Problems: problems}
	}
	return nil
}

// LegalFiles are the files the catalog's legal pages were read from, path → content: what is
// stored with the catalog so every replica serves them without the catalog's folder.
func (c *Catalog) LegalFiles() map[string][]byte {
	out := map[string][]byte{}
	for _, l := range c.Legal {
		for k, f := range l.Files {
			if d, ok := l.Docs[k]; ok {
				out[f] = d
			}
		}
	}
	return out
}

//go:embed legal
var demoLegal embed.FS

// DemoLegal reads the demo catalog's legal files (embedded beside demo.yaml, as its entries name
// them: legal/terms.md, …).
func DemoLegal() LegalReader { return FSReader(demoLegal) }

// WriteDemoLegal writes the demo catalog's legal files into dir (as dir/legal/…), where a copy
// of demo.yaml written into dir finds them: the demo as a starting point on disk.
func WriteDemoLegal(dir string) error {
	return fs.WalkDir(demoLegal, "legal", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := demoLegal.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
}
