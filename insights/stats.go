package insights

import (
	"iter"
	"time"
)

// Visitors sums counts by whether the visitor was authenticated (no claim
// is kept, so visitor segments are by authentication only).
func Visitors(counts iter.Seq[Count]) (authenticated, anonymous int64) {
	for c := range counts {
		if c.Authenticated {
			authenticated += c.Events
		} else {
			anonymous += c.Events
		}
	}
	return authenticated, anonymous
}

// LastHours is the span of the last d up to now, ending with the current
// hour (which counts).
func LastHours(now time.Time, d time.Duration) (from, to time.Time) {
	to = now.UTC().Truncate(time.Hour).Add(time.Hour)
	return to.Add(-d), to
}

// PulseWeeks are the weeks of the questions' weekly pulse, the last ending
// with the current hour; they are the span of question statistics unless
// one is asked.
const PulseWeeks = 13

// PulseSpan is the weeks of the pulse (PulseWeeks) up to now.
func PulseSpan(now time.Time) (from, to time.Time) {
	return LastHours(now, PulseWeeks*7*24*time.Hour)
}

// QuestionStats is what the counts of questions asked (ask_question events)
// say: how many, by display context, and by week of the pulse.
type QuestionStats struct {
	Total    int64
	Channels map[string]int64 // by display context
	Pulse    []int64          // by week of PulseSpan(now), oldest first
}

// Questions sums the counts of questions asked, now being the time they
// are asked about.
func Questions(counts iter.Seq[Count], now time.Time) QuestionStats {
	out := QuestionStats{Channels: map[string]int64{}, Pulse: make([]int64, PulseWeeks)}
	start, _ := PulseSpan(now)
	for c := range counts {
		out.Total += c.Events
		out.Channels[c.DisplayContext] += c.Events
		if week := int(time.Unix(c.Hour, 0).Sub(start) / (7 * 24 * time.Hour)); week >= 0 && week < PulseWeeks {
			out.Pulse[week] += c.Events
		}
	}
	return out
}
