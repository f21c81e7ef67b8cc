package insights

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestVisitors(t *testing.T) {
	t.Parallel()
	if auth, anon := Visitors(slices.Values(counts)); auth != 2 || anon != 13 {
		t.Errorf("Visitors = %d, %d; want 2, 13", auth, anon)
	}
	if auth, anon := Visitors(slices.Values([]Count(nil))); auth != 0 || anon != 0 {
		t.Errorf("Visitors of nothing = %d, %d", auth, anon)
	}
}

// TestQuestions: questions by display context and by week of the pulse,
// the last week ending with the current hour; those before it count in
// the total only.
func TestQuestions(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 30, 12, 30, 0, 0, time.UTC)
	from, to := PulseSpan(now)
	if want := time.Date(2026, 3, 30, 13, 0, 0, 0, time.UTC); !to.Equal(want) || !from.Equal(want.Add(-13*7*24*time.Hour)) {
		t.Fatalf("PulseSpan = %v, %v", from, to)
	}
	at := func(d time.Duration) int64 { return to.Add(-d).Unix() }
	asked := []Count{
		{Key{Hour: at(time.Hour), DisplayContext: "site"}, 2},         // the last week
		{Key{Hour: at(8 * 24 * time.Hour), DisplayContext: "mcp"}, 1}, // the week before
		{Key{Hour: at(13 * 7 * 24 * time.Hour), DisplayContext: "site"}, 4},
		{Key{Hour: at(14 * 7 * 24 * time.Hour), DisplayContext: "embed"}, 8}, // before the pulse
	}
	pulse := make([]int64, PulseWeeks)
	pulse[0], pulse[11], pulse[12] = 4, 1, 2
	want := QuestionStats{Total: 15, Channels: map[string]int64{"site": 6, "mcp": 1, "embed": 8}, Pulse: pulse}
	if diff := cmp.Diff(want, Questions(slices.Values(asked), now)); diff != "" {
		t.Errorf("Questions (-want +got):\n%s", diff)
	}
}
