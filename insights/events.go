package insights

import "strings"

// maxSearchText bounds the text of a search counted, in characters.
const maxSearchText = 128

// SearchText is a search's text as it is counted (eventSearchQuery): in
// lower case, its runs of spaces made one space and none at either end,
// and at most 128 characters, so that the same search counts once however
// it was typed.
func SearchText(q string) string {
	s := strings.ToLower(strings.Join(strings.Fields(q), " "))
	if r := []rune(s); len(r) > maxSearchText {
		return string(r[:maxSearchText])
	}
	return s
}
