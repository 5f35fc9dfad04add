package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"html/template"
	"io/fs"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// ErrCatalog reports a broken host message catalog (assets/i18n.json).
var ErrCatalog = errors.New("web: invalid host message catalog")

// localeInfo is one entry of the catalog's locale table.
type localeInfo struct {
	Code         string `json:"code"`         // widget code: "en", "de-de", …
	SwitcherCode string `json:"switcherCode"` // spec code shown in the switcher: "en-en", …
	ISO          string `json:"iso"`          // BCP 47 tag for lang attributes
	Name         string `json:"name"`
	Flag         string `json:"flag"`
	Listed       bool   `json:"listed"`
}

// catalog is the host's own strings; the widget has its own tables.
type catalog struct {
	Default  string                       `json:"default"`
	Locales  []localeInfo                 `json:"locales"`
	Messages map[string]map[string]string `json:"messages"`

	html map[string]map[string]template.HTML // Messages escaped once for templates
}

func loadCatalog(fsys fs.FS, name string) (*catalog, error) {
	raw, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("load catalog: %w", err)
	}
	var c catalog
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("load catalog: %w: %v", ErrCatalog, err)
	}
	base, ok := c.Messages[c.Default]
	if !ok {
		return nil, fmt.Errorf("load catalog: %w: no messages for default %q", ErrCatalog, c.Default)
	}
	// Every locale must carry every key: a missing string would show English
	// (or nothing) on a translated page.
	for _, l := range c.Locales {
		m, ok := c.Messages[l.Code]
		if !ok {
			return nil, fmt.Errorf("load catalog: %w: no messages for %q", ErrCatalog, l.Code)
		}
		for k := range base {
			if m[k] == "" {
				return nil, fmt.Errorf("load catalog: %w: %q lacks %q", ErrCatalog, l.Code, k)
			}
		}
	}
	c.html = map[string]map[string]template.HTML{}
	for code, m := range c.Messages {
		c.html[code] = map[string]template.HTML{}
		for k, v := range m {
			c.html[code][k] = template.HTML(html.EscapeString(v))
		}
	}
	return &c, nil
}

// shown is the switcher's entry for l: l when the menu lists it, else the listed locale of its
// language (en-us and en-gb show the menu's English), else l.
func (c *catalog) shown(l localeInfo) localeInfo {
	if l.Listed {
		return l
	}
	lang, _, _ := strings.Cut(l.Code, "-")
	for _, o := range c.Locales {
		if ol, _, _ := strings.Cut(o.Code, "-"); o.Listed && ol == lang {
			return o
		}
	}
	return l
}

func (c *catalog) info(code string) (localeInfo, bool) {
	for _, l := range c.Locales {
		if l.Code == code {
			return l, true
		}
	}
	return localeInfo{}, false
}

// known maps a locale code as found in a cookie or a header to a catalog
// code: exact codes first ("en-en" is the spec's name for "en"), then the
// language alone ("de" → "de-de", "pt-BR" → "pt-pt").
func (c *catalog) known(tag string) (string, bool) {
	tag = strings.ToLower(strings.TrimSpace(strings.ReplaceAll(tag, "_", "-")))
	if tag == "" {
		return "", false
	}
	if tag == "en-en" {
		tag = "en"
	}
	if _, ok := c.info(tag); ok {
		return tag, true
	}
	lang, _, _ := strings.Cut(tag, "-")
	if lang == "en" {
		return "en", true
	}
	for _, l := range c.Locales {
		if strings.HasPrefix(l.Code, lang+"-") {
			return l.Code, true
		}
	}
	return "", false
}

// resolve picks the locale the host renders its own strings in, in the
// widget's order so the page does not switch language once the widget
// reports its choice: the browserLang cookie (an explicit choice), then the
// URL prefix, then Accept-Language (navigator.languages), then the default.
func (c *catalog) resolve(r *http.Request, prefix string) string {
	if ck, err := r.Cookie("browserLang"); err == nil {
		if code, ok := c.exact(ck.Value); ok {
			return code
		}
	}
	if prefix != "" {
		if code, ok := c.exact(prefix); ok {
			return code
		}
	}
	for _, tag := range acceptLanguages(r.Header.Get("Accept-Language")) {
		if code, ok := c.known(tag); ok {
			return code
		}
	}
	return c.Default
}

// exact accepts only a catalog code ("en-en" standing for "en").
func (c *catalog) exact(code string) (string, bool) {
	code = strings.ToLower(strings.TrimSpace(code))
	if code == "en-en" {
		code = "en"
	}
	_, ok := c.info(code)
	return code, ok
}

// acceptLanguages returns the tags of an Accept-Language header, best first.
func acceptLanguages(h string) []string {
	type tagQ struct {
		tag string
		q   float64
	}
	var tags []tagQ
	for _, part := range strings.Split(h, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if tag == "" || tag == "*" {
			continue
		}
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		if q > 0 {
			tags = append(tags, tagQ{tag, q})
		}
	}
	sort.SliceStable(tags, func(i, j int) bool { return tags[i].q > tags[j].q })
	out := make([]string, len(tags))
	for i, t := range tags {
		out[i] = t.tag
	}
	return out
}
