package search

import (
	"slices"
	"strings"
	"testing"
)

func TestQuestionTerms(t *testing.T) {
	if got := QuestionTerms("How do I install Quire on Linux?"); !slices.Equal(got, []string{"install", "quire", "linux"}) {
		t.Errorf("terms %q", got)
	}
	if got := QuestionTerms("What is it?"); !slices.Equal(got, []string{"what", "is", "it"}) {
		t.Errorf("only common words: %q, want them all", got)
	}
}

func TestExtract(t *testing.T) {
	src := Source{PageTitle: "Install", URL: "http://x.test/s/1/install#linux",
		Section: Section{ID: "linux", Title: "On Linux", Body: "Unpack the archive. Run the installer as root! Then start it.\nAsk [admins] for help."}}
	titleOnly := Source{PageTitle: "Installer", Section: Section{Body: "Nothing here."}}
	got, used := Extract([]string{"installer", "root", "start"}, []Source{titleOnly, src})
	want := "> Run the installer as root! Then start it.\n\nFrom [Install › On Linux](http://x.test/s/1/install#linux)."
	if got != want || used != 1 {
		t.Errorf("Extract\n got %q (source %d)\nwant %q (source 1: the first found by its title only)", got, used, want)
	}
	if got, used := Extract([]string{"kubernetes"}, []Source{src}); got != "" || used != -1 {
		t.Errorf("no term held: %q, %d", got, used)
	}
	src.PageTitle = "A [b] c"
	src.Section.Title = ""
	if got, _ := Extract([]string{"admins"}, []Source{src}); !strings.Contains(got, `From [A \[b\] c](`) || !strings.HasPrefix(got, "> Ask [admins] for help.") {
		t.Errorf("label escaping: %q", got)
	}
}

func TestParseAnswer(t *testing.T) {
	text := "Run it as root [2], see also [1] and [9].\n\n- Follow-up: How do I stop it?\n**Follow-up:** Which ports?\nFollow-up: Logs?\nFollow-up: Too many?\n"
	md, fu, cited := ParseAnswer(text, 3)
	if md != "Run it as root [2], see also [1] and [9]." || !slices.Equal(fu, []string{"How do I stop it?", "Which ports?", "Logs?"}) ||
		!slices.Equal(cited, []int{1, 0}) {
		t.Errorf("ParseAnswer = %q, %q, %v", md, fu, cited)
	}
	if _, fu, cited := ParseAnswer("No citation.", 2); len(fu) != 0 || !slices.Equal(cited, []int{0, 1}) {
		t.Errorf("uncited: %q %v", fu, cited)
	}
}

func TestWithoutPartialFollowUp(t *testing.T) {
	for in, want := range map[string]string{
		"Answer.\nFoll":            "Answer.\n",
		"Answer.\n- Follow-up: Ho": "Answer.\n",
		"Answer.\nFor example":     "Answer.\nFor example",
		"Answer [1]":               "Answer [1]",
	} {
		if got := WithoutPartialFollowUp(in); got != want {
			t.Errorf("WithoutPartialFollowUp(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRecommend(t *testing.T) {
	got := Recommend([]string{"Install", "Why Quire?", "Install", "Webhooks.", "Can I retry?", "A", "B", "C"})
	want := []string{"Why Quire?", "Can I retry?", "What does the documentation say about Install?",
		"What does the documentation say about Webhooks?", "What does the documentation say about A?"}
	if !slices.Equal(got, want) {
		t.Errorf("Recommend = %q", got)
	}
	if got := ParseQuestions("1. How?\n2) Why?\n- How?\n\n* When?\nWhere?\nWho?\n"); !slices.Equal(got, []string{"How?", "Why?", "When?", "Where?", "Who?"}) {
		t.Errorf("ParseQuestions = %q", got)
	}
}

// FuzzParseAnswer: any model output parses without panic; cited sources
// are in range and distinct; no follow-up line is left in the answer.
func FuzzParseAnswer(f *testing.F) {
	f.Add("Answer [1].\nFollow-up: Why?\n", 2)
	f.Add("[0] [999] [3]", 3)
	f.Fuzz(func(t *testing.T, text string, sources int) {
		sources = sources % 10
		if sources < 0 {
			sources = -sources
		}
		md, fu, cited := ParseAnswer(text, sources)
		if len(fu) > maxFollowUps {
			t.Errorf("%d follow-ups", len(fu))
		}
		seen := map[int]bool{}
		for _, i := range cited {
			if i < 0 || i >= sources || seen[i] {
				t.Errorf("cited %v of %d sources", cited, sources)
			}
			seen[i] = true
		}
		if followUp.MatchString(md) {
			t.Errorf("follow-up left in %q", md)
		}
		WithoutPartialFollowUp(text)
	})
}
