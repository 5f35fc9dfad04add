package whmcs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Int is a whole number WHMCS sends as a number, a string, "" or null (0).
type Int int

// UnmarshalJSON implements json.Unmarshaler.
func (n *Int) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "" || s == "null" {
		*n = 0
		return nil
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("whole number %s", b)
	}
	*n = Int(v)
	return nil
}

// Bool is a flag WHMCS sends as true/false, 1/0, "1"/"0", "on"/"" or null.
type Bool bool

// UnmarshalJSON implements json.Unmarshaler.
func (v *Bool) UnmarshalJSON(b []byte) error {
	switch strings.ToLower(strings.Trim(string(b), `"`)) {
	case "true", "1", "on", "yes":
		*v = true
	case "false", "0", "off", "no", "", "null":
		*v = false
	default:
		return fmt.Errorf("flag %s", b)
	}
	return nil
}

// Decimal is an amount or rate WHMCS sends as a string ("12.99") or a number (10): the decimal
// text, never a float, so money stays exact.
type Decimal string

// UnmarshalJSON implements json.Unmarshaler.
func (d *Decimal) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(strings.Trim(string(b), `"`))
	if s == "null" {
		s = ""
	}
	if s != "" {
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return fmt.Errorf("decimal %s", b)
		}
	}
	*d = Decimal(s)
	return nil
}

// Price is a product's price on one cycle: "-1.00" (or any negative) is a cycle not sold.
type Price struct {
	Amount Decimal // when Sold
	Sold   bool
}

// UnmarshalJSON implements json.Unmarshaler.
func (p *Price) UnmarshalJSON(b []byte) error {
	var d Decimal
	if err := d.UnmarshalJSON(b); err != nil {
		return err
	}
	*p = Price{}
	if d != "" && !strings.HasPrefix(string(d), "-") {
		*p = Price{Amount: d, Sold: true}
	}
	return nil
}

// Date is a day or a time WHMCS sends as "YYYY-MM-DD" or "YYYY-MM-DD HH:MM:SS"; "0000-00-00"
// (with or without a time), "" and null are no date: the zero Time.
type Date struct{ time.Time }

// UnmarshalJSON implements json.Unmarshaler.
func (d *Date) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	d.Time = time.Time{}
	if s == "" || s == "null" || strings.HasPrefix(s, "0000-00-00") {
		return nil
	}
	for _, layout := range []string{time.DateTime, time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			d.Time = t
			return nil
		}
	}
	return fmt.Errorf("date %s", b)
}

// IDs is a comma list of ids WHMCS sends as one string ("1,2"), or a number, or a list.
type IDs []int

// UnmarshalJSON implements json.Unmarshaler.
func (ids *IDs) UnmarshalJSON(b []byte) error {
	*ids = nil
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte("[")) {
		var list []Int
		if err := json.Unmarshal(b, &list); err != nil {
			return err
		}
		for _, n := range list {
			*ids = append(*ids, int(n))
		}
		return nil
	}
	s := strings.Trim(string(b), `"`)
	if s == "null" {
		return nil
	}
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		n, err := strconv.Atoi(part)
		if err != nil {
			return fmt.Errorf("id list %s", b)
		}
		*ids = append(*ids, n)
	}
	return nil
}

// List is a collection WHMCS wraps in an object of one key ({"product":[…]}), or sends as ""
// or null when empty, or as a bare list.
type List[T any] []T

// UnmarshalJSON implements json.Unmarshaler.
func (l *List[T]) UnmarshalJSON(b []byte) error {
	*l = nil
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0, string(b) == "null", string(b) == `""`:
		return nil
	case b[0] == '[':
		var items []T
		err := json.Unmarshal(b, &items)
		*l = items
		return err
	case b[0] == '{':
		var wrapped map[string]json.RawMessage
		if err := json.Unmarshal(b, &wrapped); err != nil {
			return err
		}
		if len(wrapped) > 1 {
			return fmt.Errorf("collection with %d keys", len(wrapped))
		}
		for _, inner := range wrapped {
			var items []T
			if bytes.HasPrefix(bytes.TrimSpace(inner), []byte("{")) { // a single item, not in a list
				var one T
				if err := json.Unmarshal(inner, &one); err != nil {
					return err
				}
				items = []T{one}
			} else if err := json.Unmarshal(inner, (*List[T])(&items)); err != nil {
				return err
			}
			*l = items
		}
		return nil
	}
	return fmt.Errorf("collection %.40s", b)
}
