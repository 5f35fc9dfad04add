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

func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}
