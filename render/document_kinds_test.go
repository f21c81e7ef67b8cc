package render

import "testing"

// checkKind holds a block kind's table tests to the document model: the
// document of each markdown has the wanted outline (as show draws it), is
// valid against the reference, and goes round through markdown unchanged;
// the markdown of written is also written back byte for byte (its
// "/pages/<id>" and "/files/<id>" read as pages and files), that of read is
// markdown Git Sync does not write.
func checkKind(t *testing.T, show func([]any) string, written, read []struct{ name, md, want string }) {
	ref := reference(t)
	check := func(t *testing.T, md, want string) {
		doc := Document(md, testResolve)
		if got := show(doc["nodes"].([]any)); got != want {
			t.Errorf("Document(%q)\n got %s\nwant %s", md, got, want)
		}
		if ref != nil {
			if err := ref.CheckSchema("JSONDocument", doc); err != nil {
				t.Error(err)
			}
		}
		roundTrip(t, md, testResolve, resolveIDs)
	}
	for _, tt := range written {
		t.Run(tt.name, func(t *testing.T) {
			check(t, tt.md, tt.want)
			// Read as Quire reads it: /pages/ and /files/ are pages and files.
			if got := roundTrip(t, tt.md, resolveIDs, resolveIDs); got != tt.md {
				t.Errorf("Markdown(Document(%q))\n got %q\nwant %q", tt.md, got, tt.md)
			}
		})
	}
	for _, tt := range read {
		t.Run(tt.name, func(t *testing.T) { check(t, tt.md, tt.want) })
	}
}
