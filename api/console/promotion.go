package console

import (
	"bytes"
	"fmt"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/streamcart/streamcart/api/catalog"
)

// Apply is source, a catalog's YAML, with the promotion code changed as ch says, or added when
// add; the rest of the document is left as it was. ErrNotFound when code is not in the catalog
// (not add); ErrExists when add and it is.
func (ch PromotionChange) Apply(source []byte, code string, add bool) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(source, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("edit promotion: the catalog in force is not a mapping")
	}
	root := doc.Content[0]
	var list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "promotions" {
			list = root.Content[i+1]
		}
	}
	if list == nil {
		list = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "promotions"}, list)
	}
	var item *yaml.Node
	for _, n := range list.Content {
		if n.Kind == yaml.MappingNode && field(n, "code") != nil && field(n, "code").Value == code {
			item = n
		}
	}
	switch {
	case add && item != nil:
		return nil, ErrExists
	case !add && item == nil:
		return nil, ErrNotFound
	case add:
		item = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		list.Content = append(list.Content, item)
		list.Style = 0
		setField(item, "code", str(code))
	}
	if ch.Type != nil {
		setField(item, "type", str(*ch.Type))
	}
	if ch.Value != nil {
		setField(item, "value", str(*ch.Value))
	}
	if ch.AppliesTo != nil {
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for _, pid := range ch.AppliesTo {
			seq.Content = append(seq.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(pid)})
		}
		setField(item, "appliesTo", seq)
	}
	date := func(s string) *yaml.Node {
		if s == "" {
			s = catalog.NoDate
		}
		return str(s)
	}
	if ch.StartDate != nil {
		setField(item, "startDate", date(*ch.StartDate))
	}
	if ch.ExpirationDate != nil {
		setField(item, "expirationDate", date(*ch.ExpirationDate))
	}
	if ch.MaxUses != nil {
		setField(item, "maxUses", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(*ch.MaxUses)})
	}
	if ch.Recurring != nil {
		setField(item, "recurring", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(*ch.Recurring)})
	}
	if ch.Disabled != nil {
		setField(item, "disabled", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(*ch.Disabled)})
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, fmt.Errorf("edit promotion: %w", err)
	}
	return out.Bytes(), nil
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func field(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func setField(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, str(key), v)
}
