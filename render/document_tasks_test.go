package render

import "testing"

// taskTests are task lists as Git Sync writes them, and the outline of
// their document; Markdown writes the document back byte for byte.
var taskTests = []struct{ name, md, want string }{
	{"tasks", "- [ ] todo\n- [x] done\n", `list-tasks[list-item{"checked":false}[paragraph["todo"]] list-item{"checked":true}[paragraph["done"]]]`},
	{"marks and more blocks", "- [x] **bold** task\n\n  more text\n- [ ] b\n  - [ ] nested\n",
		`list-tasks[list-item{"checked":true}[paragraph[bold:"bold" " task"] paragraph["more text"]] ` +
			`list-item{"checked":false}[paragraph["b"] list-tasks[list-item{"checked":false}[paragraph["nested"]]]]]`},
	{"empty task", "- [x]\n- [ ] a\n", `list-tasks[list-item{"checked":true}[paragraph[""]] list-item{"checked":false}[paragraph["a"]]]`},
	{"empty task before more", "- [ ]\n\n  - [x] nested\n\n  text\n",
		`list-tasks[list-item{"checked":false}[paragraph[""] list-tasks[list-item{"checked":true}[paragraph["nested"]]] paragraph["text"]]]`},
	{"in a hint", "{% hint style=\"info\" %}\n- [ ] a\n{% endhint %}\n", `hint{"style":"info"}[list-tasks[list-item{"checked":false}[paragraph["a"]]]]`},
	{"box as text", "- \\[ \\] a\n", `list-unordered[list-item[paragraph["[ ] a"]]]`},
}

// taskReadTests are other markdown with check boxes.
var taskReadTests = []struct{ name, md, want string }{
	{"capital X", "* [X] a", `list-tasks[list-item{"checked":true}[paragraph["a"]]]`},
	{"not every item has a box", "- [x] a\n- b", `list-unordered[list-item[paragraph["[x] a"]] list-item[paragraph["b"]]]`},
	{"ordered list is not a task list", "1. [x] a", `list-ordered[list-item[paragraph["[x] a"]]]`},
	{"box with a link after", "- [ ] [a](https://x.example)", `list-tasks[list-item{"checked":false}[paragraph[link{"ref":{"kind":"url","url":"https://x.example"}}["a"]]]]`},
	{"a link starting an item is no box", "- [x](https://x.example) a", `list-unordered[list-item[paragraph[link{"ref":{"kind":"url","url":"https://x.example"}}["x"] " a"]]]`},
	{"box alone before bold", "- [ ] **a**", `list-tasks[list-item{"checked":false}[paragraph[bold:"a"]]]`},
}

func TestTasksRoundTrip(t *testing.T) { checkKind(t, outline, taskTests, taskReadTests) }

// TestTasksMarkdownRefuses: a task that does not start with a paragraph
// cannot be written (its box would read back as an empty task).
func TestTasksMarkdownRefuses(t *testing.T) {
	doc := decodeJSON(t, `{"object":"document","data":{},"nodes":[{"object":"block","type":"list-tasks","nodes":[{"object":"block","type":"list-item","data":{"checked":true},"nodes":[
		{"object":"block","type":"code","data":{},"nodes":[{"object":"block","type":"code-line","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[]}]}]}]}]}]}]}`)
	if _, err := Markdown(doc); err == nil || err.Error() != "document.nodes[0].nodes[0]: a task's first block must be a paragraph" {
		t.Errorf("got %v", err)
	}
}
