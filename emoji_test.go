package quire

import (
	"strings"
	"testing"
)

func TestCheckEmoji(t *testing.T) {
	for _, v := range []string{
		"👍", "😀", "🫠", "❤️", "❤", "©", "™️", // pictographs, with or without the emoji variation selector
		"👋🏽", "👍🏿", // skin tones
		"🇫🇷", "🇯🇵", // flags
		"1️⃣", "#️⃣", "*⃣", // keycaps
		"🏴󠁧󠁢󠁳󠁣󠁴󠁿",                                              // a tag sequence (Scotland)
		"👩‍💻", "👩🏽‍💻", "🏳️‍🌈", "🏴‍☠️", "👨‍👩‍👧‍👦", "👩🏻‍❤️‍💋‍👨🏼", // ZWJ sequences
		"\U0001FAE9", // a pictograph of Unicode 16, newer than the table: its block is set aside
	} {
		if err := CheckEmoji("emoji", v); err != nil {
			t.Errorf("%q (%U): %v", v, []rune(v), err)
		}
	}
	for _, v := range []string{
		"", " ", "a", "1", "#", "é", "中", ":+1:", "+1",
		"👍👍", "🇫🇷🇯🇵", "👍 ", " 👍", "x👍", // more than one
		"🇫",         // half a flag
		"🏻",         // a skin tone alone
		"1️", "1⃣️", // not keycaps
		"👍‍", "‍👍", "👍‍‍👍", "🇫🇷‍👍", // joiners out of place
		"❤︎",     // text presentation
		"🏴󠁧󠁢󠁳󠁣󠁴", // a tag sequence without its end
		"\xff",
	} {
		if err := CheckEmoji("emoji", v); ErrorCode(err) != CodeInvalid {
			t.Errorf("%q (%U) accepted", v, []rune(v))
		}
	}
}

func TestCheckCommentBody(t *testing.T) {
	for v, ok := range map[string]bool{"x": true, "": false, " \n\t": false, strings.Repeat("é", MaxCommentChars): true} {
		if err := CheckCommentBody("body", v); (err == nil) != ok {
			t.Errorf("%d characters: %v", len([]rune(v)), err)
		}
	}
	if CheckCommentBody("body", strings.Repeat("é", MaxCommentChars+1)) == nil {
		t.Error("a body over the maximum is accepted")
	}
}
