package quire

import (
	"unicode"
	"unicode/utf8"
)

// CheckEmoji validates that v is exactly one emoji: a pictograph, optionally
// with the emoji variation selector or a skin tone, a flag (two regional
// indicators), a keycap (0-9, # or * with U+20E3), a tag sequence (the flags
// of England, Scotland, Wales), or such elements joined by zero-width joiners
// (👩🏽‍💻, 🏳️‍🌈). This is the "possible emoji" grammar of Unicode TR51 §1.4.9,
// which is one grapheme cluster; anything else, text included, is CodeInvalid.
func CheckEmoji(field, v string) error {
	if !isEmoji(v) {
		return Errorf(CodeInvalid, "%s: must be a single emoji, got %q", field, v)
	}
	return nil
}

const (
	zwj           = '\u200D'
	emojiVS       = '\uFE0F'
	keycapMark    = '\u20E3'
	tagFirst      = '\U000E0020'
	tagLast       = '\U000E007E'
	tagCancel     = '\U000E007F'
	modifierFirst = '\U0001F3FB' // skin tones
	modifierLast  = '\U0001F3FF'
	riFirst       = '\U0001F1E6' // regional indicators
	riLast        = '\U0001F1FF'
	maxEmojiRunes = 32 // the longest sequences in use have about ten
)

func isEmoji(v string) bool {
	rs := []rune(v)
	if len(rs) == 0 || len(rs) > maxEmojiRunes || !utf8.ValidString(v) {
		return false
	}
	if isRI(rs[0]) { // a flag joins with nothing
		return len(rs) == 2 && isRI(rs[1])
	}
	if keycapBase(rs[0]) {
		return len(rs) == 3 && rs[1] == emojiVS && rs[2] == keycapMark ||
			len(rs) == 2 && rs[1] == keycapMark
	}
	for i := 0; ; i++ {
		n := emojiElement(rs)
		if n == 0 {
			return false
		}
		rs = rs[n:]
		if len(rs) == 0 {
			return true
		}
		if rs[0] != zwj || len(rs) == 1 {
			return false
		}
		rs = rs[1:]
	}
}

// emojiElement returns the length of the ZWJ element that rs starts with, 0
// if none: a pictograph followed by a skin tone, the variation selector, or
// a tag specification.
func emojiElement(rs []rune) int {
	if !unicode.Is(extendedPictographic, rs[0]) {
		return 0
	}
	n := 1
	switch {
	case n < len(rs) && isModifier(rs[n]):
		n++
	case n < len(rs) && rs[n] == emojiVS:
		n++
	case n < len(rs) && rs[n] >= tagFirst && rs[n] <= tagLast:
		for n < len(rs) && rs[n] >= tagFirst && rs[n] <= tagLast {
			n++
		}
		if n == len(rs) || rs[n] != tagCancel {
			return 0
		}
		n++
	}
	return n
}

func isRI(r rune) bool       { return r >= riFirst && r <= riLast }
func isModifier(r rune) bool { return r >= modifierFirst && r <= modifierLast }
func keycapBase(r rune) bool { return r >= '0' && r <= '9' || r == '#' || r == '*' }

// extendedPictographic is the Extended_Pictographic property of Unicode's
// emoji-data.txt (15.0): every emoji base, including code points set aside
// for future pictographs, so new emoji are accepted before this table knows
// them.
var extendedPictographic = &unicode.RangeTable{
	R16: []unicode.Range16{
		{0x00A9, 0x00AE, 5}, {0x203C, 0x2049, 13}, {0x2122, 0x2139, 23}, {0x2194, 0x2199, 1}, {0x21A9, 0x21AA, 1},
		{0x231A, 0x231B, 1}, {0x2328, 0x2388, 96}, {0x23CF, 0x23E9, 26}, {0x23EA, 0x23F3, 1}, {0x23F8, 0x23FA, 1},
		{0x24C2, 0x25AA, 232}, {0x25AB, 0x25B6, 11}, {0x25C0, 0x25FB, 59}, {0x25FC, 0x25FE, 1}, {0x2600, 0x2605, 1},
		{0x2607, 0x2612, 1}, {0x2614, 0x2685, 1}, {0x2690, 0x2705, 1}, {0x2708, 0x2712, 1}, {0x2714, 0x2716, 2},
		{0x271D, 0x2721, 4}, {0x2728, 0x2733, 11}, {0x2734, 0x2744, 16}, {0x2747, 0x274C, 5}, {0x274E, 0x2753, 5},
		{0x2754, 0x2755, 1}, {0x2757, 0x2763, 12}, {0x2764, 0x2767, 1}, {0x2795, 0x2797, 1}, {0x27A1, 0x27B0, 15},
		{0x27BF, 0x2934, 373}, {0x2935, 0x2B05, 464}, {0x2B06, 0x2B07, 1}, {0x2B1B, 0x2B1C, 1}, {0x2B50, 0x2B55, 5},
		{0x3030, 0x303D, 13}, {0x3297, 0x3299, 2},
	},
	R32: []unicode.Range32{
		{0x1F000, 0x1F0FF, 1}, {0x1F10D, 0x1F10F, 1}, {0x1F12F, 0x1F16C, 61}, {0x1F16D, 0x1F171, 1}, {0x1F17E, 0x1F17F, 1},
		{0x1F18E, 0x1F191, 3}, {0x1F192, 0x1F19A, 1}, {0x1F1AD, 0x1F1E5, 1}, {0x1F201, 0x1F20F, 1}, {0x1F21A, 0x1F22F, 21},
		{0x1F232, 0x1F23A, 1}, {0x1F23C, 0x1F23F, 1}, {0x1F249, 0x1F3FA, 1}, {0x1F400, 0x1F53D, 1}, {0x1F546, 0x1F64F, 1},
		{0x1F680, 0x1F6FF, 1}, {0x1F774, 0x1F77F, 1}, {0x1F7D5, 0x1F7FF, 1}, {0x1F80C, 0x1F80F, 1}, {0x1F848, 0x1F84F, 1},
		{0x1F85A, 0x1F85F, 1}, {0x1F888, 0x1F88F, 1}, {0x1F8AE, 0x1F8FF, 1}, {0x1F90C, 0x1F93A, 1}, {0x1F93C, 0x1F945, 1},
		{0x1F947, 0x1FAFF, 1}, {0x1FC00, 0x1FFFD, 1},
	},
	LatinOffset: 1,
}
