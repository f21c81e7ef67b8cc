package render

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// updateFormats are the formats of updates' dates.
var updateFormats = []string{"numeric", "full", "short"}

// updates converts updates (see document_items.go) at the top level: an
// updates block (format: its tag's, else full) of updates, each dated (its
// date="2026-05-25" at midnight UTC) and tagged (tags="a,b", tag slugs).
// Elsewhere, or when an update has no date or one that is not a day, it is
// each update's date as a paragraph and its content.
func (c *converter) updates(n *formNode, at place) []any {
	flat := func() []any {
		return c.flatItems(n, "update", at, func(a map[string]string) string { return a["date"] })
	}
	if at != atTop {
		return flat()
	}
	list := []any{}
	for _, it := range c.items(n, "update", inUpdate) {
		day, err := time.Parse(time.DateOnly, it.attrs["date"])
		if err != nil {
			return flat()
		}
		data := map[string]any{"date": day.Format("2006-01-02T15:04:05.000Z")}
		if tags := it.attrs["tags"]; tags != "" {
			var refs []any
			for _, t := range strings.Split(tags, ",") {
				if t != "" {
					refs = append(refs, map[string]any{"kind": "tag", "tag": strings.ReplaceAll(t, "\x00", "\uFFFD")})
				}
			}
			if refs != nil {
				data["tags"] = refs
			}
		}
		list = append(list, block("update", data, it.nodes))
	}
	format := n.attrs["format"]
	if !slices.Contains(updateFormats, format) {
		format = "full"
	}
	return []any{block("updates", map[string]any{"format": format}, list)}
}

// updatesMD writes updates as Git Sync does. Only a date at midnight UTC,
// and tags of this space without a comma, can be written.
func updatesMD(out *[]chunk, data map[string]any, list []any, paths []*nodePath, path *nodePath) error {
	format, _ := data["format"].(string)
	if !slices.Contains(updateFormats, format) {
		return fmt.Errorf("%s.data.format: must be numeric, full or short", path)
	}
	return itemsMD(out, "updates", ` format="`+format+`"`, "update", "update", list, paths, inUpdate, func(data map[string]any, p *nodePath) (string, error) {
		s, _ := data["date"].(string)
		t, err := time.Parse(time.RFC3339, s)
		if err != nil || !t.Equal(t.UTC().Truncate(24*time.Hour)) {
			return "", fmt.Errorf("%s.data.date: must be a day (midnight UTC) to be written as markdown", p)
		}
		a := ` date="` + t.UTC().Format(time.DateOnly) + `"`
		tags, _ := data["tags"].([]any)
		var slugs []string
		for i, v := range tags {
			ref, _ := v.(map[string]any)
			slug, _ := ref["tag"].(string)
			if _, other := ref["space"]; other || slug == "" || strings.Contains(slug, ",") {
				return "", fmt.Errorf("%s.data.tags[%d]: cannot be written as markdown", p, i)
			}
			slugs = append(slugs, slug)
		}
		if len(slugs) > 0 {
			a += ` tags="` + tagValue(strings.Join(slugs, ",")) + `"`
		}
		return a, nil
	})
}
