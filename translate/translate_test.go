package translate

import (
	"slices"
	"strings"
	"testing"
)

func TestChunksKeepCodeBlocksWhole(t *testing.T) {
	text := "# Title\n\nOne.\n\n```\na\n\nb\n```\n\nTwo.\n"
	if got := Chunks(text, 1); !slices.Equal(got, []string{"# Title", "One.", "```\na\n\nb\n```", "Two."}) {
		t.Errorf("chunks %q", got)
	}
	if got := Chunks(text, 1000); len(got) != 1 || got[0] != strings.TrimSpace(text) {
		t.Errorf("one chunk %q", got)
	}
}

func TestUnwrapFence(t *testing.T) {
	for _, c := range []struct{ answer, given, want string }{
		{"```markdown\n# Titre\n```", "# Title", "# Titre"},
		{"```sh\nls\n```", "```sh\nls\n```", "```sh\nls\n```"}, // the text was a code block
		{"# Titre", "# Title", "# Titre"},
	} {
		if got := unwrapFence(c.answer, c.given); got != c.want {
			t.Errorf("unwrapFence(%q) = %q, want %q", c.answer, got, c.want)
		}
	}
}

func TestDocumentText(t *testing.T) {
	leaf := func(s string) any {
		return map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": s}}}
	}
	doc := map[string]any{"object": "document", "nodes": []any{
		map[string]any{"object": "block", "type": "paragraph", "nodes": []any{leaf("Use "), leaf("vous.")}},
		map[string]any{"object": "block", "type": "paragraph", "nodes": []any{leaf("Keep names.")}},
	}}
	if got := DocumentText(doc); got != "Use vous.\nKeep names." {
		t.Errorf("text %q", got)
	}
}

func TestGlossaryPromptOnlyTermsFound(t *testing.T) {
	g := []Term{{"widget", "bidule"}, {"gizmo", "gadget"}, {"Space", "espace"}}
	got := glossaryPrompt(g, "Turn the Widget on in a space.", 1)
	if !strings.Contains(got, `"widget" → "bidule"`) || strings.Contains(got, "gizmo") || strings.Contains(got, "espace") {
		t.Errorf("prompt %q", got)
	}
}
