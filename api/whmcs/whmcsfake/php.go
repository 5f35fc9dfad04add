package whmcsfake

import (
	"encoding/base64"
	"regexp"
	"strconv"
	"strings"
)

// unserialize decodes what AddOrder and UpdateClientProduct take in configoptions[] and
// customfields[]: base64 of a PHP-serialised array of integer keys to integers or strings
// (a:2:{i:2;i:1;i:4;s:3:"yes";}). It is written apart from the client's encoder, so a test of
// one against the other checks the format rather than a shared mistake.
func unserialize(b64 string) (map[int]string, error) {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, errBadSerialized
	}
	s := string(raw)
	var n int
	head, rest, ok := strings.Cut(s, ":{")
	if !ok || !strings.HasPrefix(head, "a:") || !strings.HasSuffix(rest, "}") {
		return nil, errBadSerialized
	}
	if n, err = strconv.Atoi(strings.TrimPrefix(head, "a:")); err != nil {
		return nil, errBadSerialized
	}
	body := strings.TrimSuffix(rest, "}")
	out := map[int]string{}
	// value reads one scalar at the start of body: i:N; or s:LEN:"…"; (LEN bytes).
	value := func() (string, bool) {
		switch {
		case strings.HasPrefix(body, "i:"):
			v, after, ok := strings.Cut(body[2:], ";")
			if _, err := strconv.Atoi(v); !ok || err != nil {
				return "", false
			}
			body = after
			return v, true
		case strings.HasPrefix(body, "s:"):
			l, after, ok := strings.Cut(body[2:], ":")
			size, err := strconv.Atoi(l)
			if !ok || err != nil || size < 0 || len(after) < size+3 || after[0] != '"' || after[size+1:size+3] != `";` {
				return "", false
			}
			body = after[size+3:]
			return after[1 : size+1], true
		}
		return "", false
	}
	for range n {
		k, ok := value()
		if !ok {
			return nil, errBadSerialized
		}
		key, err := strconv.Atoi(k)
		if err != nil {
			return nil, errBadSerialized
		}
		v, ok := value()
		if !ok {
			return nil, errBadSerialized
		}
		out[key] = v
	}
	if body != "" {
		return nil, errBadSerialized
	}
	return out, nil
}

// optionEntry is one entry of UpdateClientProduct's configoptions: i:ID; then a choice (i:N;) or
// array('optionid' => choice, 'qty' => qty).
var optionEntry = regexp.MustCompile(`^i:(\d+);(?:i:(\d+);|a:2:\{s:8:"optionid";i:(\d+);s:3:"qty";i:(\d+);\})`)

// optionValue is a service's config option as UpdateClientProduct sets it: a choice id, or a
// quantity option's choice and quantity (Qty -1: a plain choice).
type optionValue struct{ Choice, Qty int }

// unserializeOptions decodes UpdateClientProduct's configoptions: base64 of a PHP-serialised
// array(configoptionid => choiceid, configoptionid => array('optionid' => choice, 'qty' => qty)).
func unserializeOptions(b64 string) (map[int]optionValue, error) {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, errBadSerialized
	}
	head, body, ok := strings.Cut(string(raw), ":{")
	n, err := strconv.Atoi(strings.TrimPrefix(head, "a:"))
	if !ok || !strings.HasPrefix(head, "a:") || err != nil || !strings.HasSuffix(body, "}") {
		return nil, errBadSerialized
	}
	body = strings.TrimSuffix(body, "}")
	out := map[int]optionValue{}
	for range n {
		m := optionEntry.FindStringSubmatch(body)
		if m == nil {
			return nil, errBadSerialized
		}
		id, _ := strconv.Atoi(m[1])
		if m[2] != "" {
			c, _ := strconv.Atoi(m[2])
			out[id] = optionValue{Choice: c, Qty: -1}
		} else {
			c, _ := strconv.Atoi(m[3])
			q, _ := strconv.Atoi(m[4])
			out[id] = optionValue{Choice: c, Qty: q}
		}
		body = body[len(m[0]):]
	}
	if body != "" {
		return nil, errBadSerialized
	}
	return out, nil
}
