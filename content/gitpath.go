package content

import (
	"crypto/sha1"
	"encoding/hex"
	"path"
	"strconv"
	"strings"
)

// GitBlobOID is the object id Git gives a file with this content.
func GitBlobOID(data string) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	h.Write([]byte(data))
	return hex.EncodeToString(h.Sum(nil))
}

// GitPaths returns the path each page would have in a Git repository, by page
// id: slugs are path segments; a page with children is <slug>/README.md and a
// leaf <slug>.md; the first top-level page is README.md (the GitBook
// convention). Group pages have no file, so no entry, but prefix their
// children's paths. Slugs repeated among siblings get -2, -3, … in order.
func GitPaths(t *Tree) map[string]string {
	paths := make(map[string]string, len(t.Pages))
	var walk func(dir string, ids []string, readme bool)
	walk = func(dir string, ids []string, readme bool) {
		used := map[string]bool{}
		if readme {
			used["readme"] = true // the directory's own README.md
		}
		for n, id := range ids {
			p := t.Pages[id]
			if p == nil {
				continue
			}
			if dir == "" && n == 0 && p.Kind != KindGroup {
				paths[id] = "README.md"
				if len(p.Children) > 0 {
					walk(path.Join(dir, segment(p, used)), p.Children, false)
				}
				continue
			}
			seg := segment(p, used)
			switch {
			case p.Kind == KindGroup:
				walk(path.Join(dir, seg), p.Children, false)
			case len(p.Children) > 0:
				paths[id] = path.Join(dir, seg, "README.md")
				walk(path.Join(dir, seg), p.Children, true)
			default:
				paths[id] = path.Join(dir, seg+".md")
			}
		}
	}
	walk("", t.Root, len(t.Root) > 0 && t.Pages[t.Root[0]] != nil && t.Pages[t.Root[0]].Kind != KindGroup)
	return paths
}

// segment returns p's path segment, unique among its siblings (compared
// without case, as some file systems do).
func segment(p *Page, used map[string]bool) string {
	s := strings.Trim(strings.ReplaceAll(p.Slug, "/", "-"), ".")
	if s == "" {
		s = p.ID
	}
	seg := s
	for n := 2; used[strings.ToLower(seg)]; n++ {
		seg = s + "-" + strconv.Itoa(n)
	}
	used[strings.ToLower(seg)] = true
	return seg
}
