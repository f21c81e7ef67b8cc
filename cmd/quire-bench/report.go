package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// scaleGoal is how much slower than on the first (smallest) space a
// figure may be on a larger one.
const scaleGoal = 1.5

// writeResult prints one space's figures as markdown tables.
func writeResult(w io.Writer, r *result, o options) {
	fmt.Fprintf(w, "### %s, %s pages\n\n", r.db, thousands(float64(r.pages)))
	fmt.Fprintf(w, "Seeded and indexed in %.2f s (%s pages/s). Closed loop of %d connections; rounds of %v, Quire and bare alternating, %d each; medians.",
		r.seedTime.Seconds(), thousands(float64(r.pages)/r.seedTime.Seconds()), o.conns, o.duration, o.rounds)
	if r.peakRSS > 0 {
		fmt.Fprintf(w, " Quire's peak memory: %d MB; its processor use during the bare rounds (which it should sit out): %.0f%% of a core.", r.peakRSS>>20, 100*r.idleCPU)
	}
	fmt.Fprint(w, "\n\n| Request | Answer | Quire req/s | p50 | p99 | Bare req/s | Quire / bare | Goal |\n|---|---|---|---|---|---|---|---|\n")
	for _, q := range r.requests {
		fmt.Fprintf(w, "| %s | %s | %s%s | %s | %s | %s%s | %.2f | ≥ %.1f %s |\n", q.name, size(q.size, q.encoding),
			thousands(q.quire.rate), errNote(q.quire), ms(q.quire.p50), ms(q.quire.p99),
			thousands(q.bare.rate), errNote(q.bare), q.ratio(), q.goal, mark(q.ratio() >= q.goal))
	}
	fmt.Fprint(w, "\n| Search, one request at a time | Answer | p50 | p99 | Worst | Goal |\n|---|---|---|---|---|---|\n")
	for _, s := range r.searches {
		fmt.Fprintf(w, "| `query=%s` | %s | %s | %s | %s | p50 ≤ %d ms %s |\n", s.query, size(s.size, ""),
			ms(s.s.p50), ms(s.s.p99), ms(s.s.max), s.goalP50.Milliseconds(), mark(s.s.p50 <= s.goalP50))
	}
	fmt.Fprintln(w)
}

// writeScale prints the results of one database side by side, each figure
// with how much slower it is than on the first space.
func writeScale(w io.Writer, rs []*result) {
	if len(rs) < 2 {
		return
	}
	fmt.Fprintf(w, "### %s: %s pages side by side\n\nQuire / bare (Quire req/s) under load; p50 one request at a time. In brackets: how many times slower than at %s pages.\n\n| Request |", rs[0].db, joinPages(rs), thousands(float64(rs[0].pages)))
	for _, r := range rs {
		fmt.Fprintf(w, " %s pages |", thousands(float64(r.pages)))
	}
	fmt.Fprintf(w, " Slowest | Goal |\n|---|%s---|---|\n", strings.Repeat("---|", len(rs)))
	for i, q := range rs[0].requests {
		fmt.Fprintf(w, "| %s |", q.name)
		worst := 0.0
		for _, r := range rs {
			x := q.ratio() / r.requests[i].ratio()
			worst = max(worst, x)
			fmt.Fprintf(w, " %.2f (%s) [%.2f×] |", r.requests[i].ratio(), thousands(r.requests[i].quire.rate), x)
		}
		fmt.Fprintf(w, " %.2f× | ≤ %.1f× %s |\n", worst, scaleGoal, mark(worst <= scaleGoal))
	}
	for i, s := range rs[0].searches {
		name := "`query=" + s.query + "`, one at a time"
		if i == 1 {
			name = "a rare word, one at a time" // a different word in each space
		}
		fmt.Fprintf(w, "| %s |", name)
		worst := 0.0
		for _, r := range rs {
			x := float64(r.searches[i].s.p50) / float64(s.s.p50)
			worst = max(worst, x)
			fmt.Fprintf(w, " %s [%.2f×] |", ms(r.searches[i].s.p50), x)
		}
		fmt.Fprintf(w, " %.2f× | ≤ %.1f× %s |\n", worst, scaleGoal, mark(worst <= scaleGoal))
	}
	fmt.Fprintln(w)
}

func joinPages(rs []*result) string {
	var s []string
	for _, r := range rs {
		s = append(s, thousands(float64(r.pages)))
	}
	return strings.Join(s, ", ")
}

func mark(ok bool) string {
	if ok {
		return "✓"
	}
	return "✗"
}

// errNote tells of failed requests, which a figure must not hide.
func errNote(s stats) string {
	if s.errs == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d errors)", s.errs)
}

// ms is d in milliseconds, with two significant digits below 10 ms.
func ms(d time.Duration) string {
	m := float64(d) / float64(time.Millisecond)
	switch {
	case m < 1:
		return fmt.Sprintf("%.2f ms", m)
	case m < 10:
		return fmt.Sprintf("%.1f ms", m)
	}
	return fmt.Sprintf("%.0f ms", m)
}

// size is n bytes in B, KB or MB, and gzip when so.
func size(n int, encoding string) string {
	var s string
	switch {
	case n < 1000:
		s = fmt.Sprintf("%d B", n)
	case n < 1_000_000:
		s = fmt.Sprintf("%.1f KB", float64(n)/1e3)
	default:
		s = fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	if encoding != "" {
		s += ", " + encoding
	}
	return s
}

// thousands is f rounded, with commas: 12,345.
func thousands(f float64) string {
	s := strconv.FormatInt(int64(f+0.5), 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
