package store

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzRebind checks the PostgreSQL placeholder rewrite: outside single-quoted
// strings every ? becomes $1, $2, … in order and none is left; everything
// else, quoted text included, is unchanged.
func FuzzRebind(f *testing.F) {
	for _, q := range []string{
		"",
		"SELECT 1",
		"SELECT * FROM t WHERE a = ? AND b = ?",
		`SELECT * FROM t WHERE a LIKE ? ESCAPE '\' AND b = ?`,
		"SELECT '?' , ?, 'it''s ?', ?",
		"INSERT INTO t (a, b) VALUES (?, ?) ON CONFLICT (a) DO UPDATE SET b = excluded.b",
		"'unterminated ? ?",
		"??'?'??",
	} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if strings.Contains(q, "$") {
			t.Skip("a $ in the input would be indistinguishable from a placeholder in the output")
		}
		out := postgresDialect{}.rebind(q)

		// Undo the rewrite, checking the numbering on the way.
		var undone strings.Builder
		n, inQuote := 0, false
		for i := 0; i < len(out); i++ {
			c := out[i]
			switch {
			case c == '\'':
				inQuote = !inQuote
			case c == '?' && !inQuote:
				t.Fatalf("rebind(%q) = %q: ? left outside quotes at offset %d", q, out, i)
			case c == '$':
				if inQuote {
					t.Fatalf("rebind(%q) = %q: $ inside quotes at offset %d", q, out, i)
				}
				n++
				num := strconv.Itoa(n)
				if !strings.HasPrefix(out[i+1:], num) {
					t.Fatalf("rebind(%q) = %q: placeholder at offset %d is not $%s", q, out, i, num)
				}
				undone.WriteByte('?')
				i += len(num)
				continue
			}
			undone.WriteByte(c)
		}
		if undone.String() != q {
			t.Fatalf("rebind(%q) = %q, which does not map back to the input (got %q)", q, out, undone.String())
		}
		want, inQuote := 0, false
		for i := 0; i < len(q); i++ {
			switch {
			case q[i] == '\'':
				inQuote = !inQuote
			case q[i] == '?' && !inQuote:
				want++
			}
		}
		if n != want {
			t.Fatalf("rebind(%q) = %q: %d placeholders, want %d", q, out, n, want)
		}
	})
}
