package whmcs

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strings"
)

// SerializeInts encodes an id → number map as AddOrder's configoptions[] takes it: base64 of
// PHP's serialize() of an array, keys in ascending order ({2: 1, 4: 1} → base64 of
// a:2:{i:2;i:1;i:4;i:1;}).
func SerializeInts(m map[int]int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "a:%d:{", len(m))
	for _, k := range sortedKeys(m) {
		fmt.Fprintf(&b, "i:%d;i:%d;", k, m[k])
	}
	b.WriteString("}")
	return base64.StdEncoding.EncodeToString([]byte(b.String()))
}

// SerializeStrings encodes an id → text map as customfields[] takes it: base64 of PHP's
// serialize() ({1: "00:1A"} → base64 of a:1:{i:1;s:5:"00:1A";}); PHP counts a string's length
// in bytes, as len does.
func SerializeStrings(m map[int]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "a:%d:{", len(m))
	for _, k := range sortedKeys(m) {
		fmt.Fprintf(&b, "i:%d;s:%d:\"%s\";", k, len(m[k]), m[k])
	}
	b.WriteString("}")
	return base64.StdEncoding.EncodeToString([]byte(b.String()))
}

// OptionQty is a quantity config option's value on a service: its choice id (GetProducts'
// options.option[].id, WHMCS's tblhostingconfigoption.optionid) and the quantity.
type OptionQty struct{ Choice, Qty int }

// SerializeOptionQtys encodes config option id → choice and quantity as UpdateClientProduct's
// configoptions takes it: base64 of PHP's serialize() of array(id => array('optionid' => choice,
// 'qty' => qty)) ({2: {7, 3}} → base64 of a:1:{i:2;a:2:{s:8:"optionid";i:7;s:3:"qty";i:3;}}).
func SerializeOptionQtys(m map[int]OptionQty) string {
	var b strings.Builder
	fmt.Fprintf(&b, "a:%d:{", len(m))
	for _, k := range sortedKeys(m) {
		fmt.Fprintf(&b, `i:%d;a:2:{s:8:"optionid";i:%d;s:3:"qty";i:%d;}`, k, m[k].Choice, m[k].Qty)
	}
	b.WriteString("}")
	return base64.StdEncoding.EncodeToString([]byte(b.String()))
}

func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}
