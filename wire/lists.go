package wire

import (
	"strconv"

	"github.com/quiredocs/quire/internal/jsonappend"
	"github.com/quiredocs/quire/store"
)

// List is the envelope of every list answer (Contract §8): one page of
// items, never null, the count of all of them, and the next page's cursor
// when there is one. An answer with more to say embeds it (LinkList).
type List[T any] struct {
	Items []T   `json:"items"`
	Count int   `json:"count"`
	Next  *Next `json:"next,omitempty"`
}

// Next is how a list shows the cursor of its next page.
type Next struct {
	Page string `json:"page"`
}

// ListOf makes the envelope of one page, converting each item with toJSON.
func ListOf[T, J any](list *store.List[T], toJSON func(T) J) List[J] {
	items := make([]J, len(list.Items))
	for i, it := range list.Items {
		items[i] = toJSON(it)
	}
	out := List[J]{Items: items, Count: list.Count}
	if list.Next != nil {
		out.Next = &Next{Page: list.Next.Encode()}
	}
	return out
}

// Items makes the envelope of a page whose items are already wire types.
func Items[T any](list *store.List[T]) List[T] {
	return ListOf(list, func(it T) T { return it })
}

// AppendJSON appends l as encoding/json writes it, each item appended by
// appendItem: for answers too large to go through reflection (comments).
// TestListJSONAppend keeps the two in step.
func (l List[T]) AppendJSON(b []byte, appendItem func([]byte, T) []byte) []byte {
	b = append(b, `{"items":[`...)
	b = jsonappend.Each(b, len(l.Items), func(b []byte, i int) []byte { return appendItem(b, l.Items[i]) })
	b = append(b, `],"count":`...)
	b = strconv.AppendInt(b, int64(l.Count), 10)
	if l.Next != nil {
		b = append(b, `,"next":{"page":`...)
		b = jsonappend.String(b, l.Next.Page)
		b = append(b, '}')
	}
	return append(b, '}')
}

// Link is how the API shows a link of a revision's pages.
type Link struct {
	Status             string      `json:"status"`
	Relation           string      `json:"relation"`
	Href               string      `json:"href"` // the target as written, to find a broken link
	TargetReference    Reference   `json:"targetReference"`
	LocationReferences []Reference `json:"locationReferences"`
}

// LinkStats is how the API shows the counts of a list's links.
type LinkStats struct {
	Total  int `json:"total"`
	Broken struct {
		Total         int `json:"total"`
		ChangeRequest int `json:"changeRequest"`
	} `json:"broken"`
}

// LinkList is the list envelope with the stats of all the links after it.
type LinkList struct {
	List[Link]
	Stats LinkStats `json:"stats"`
}
