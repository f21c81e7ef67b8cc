package published

import (
	"testing"

	"github.com/quiredocs/quire"
)

// visitor sees the conditions named, and no other.
func visitor(conditions ...string) Sees {
	return func(c string) bool {
		if c == "" {
			return true
		}
		for _, h := range conditions {
			if h == c {
				return true
			}
		}
		return false
	}
}

func siteSpace(id, path, condition string, isDefault bool) *quire.SiteSpace {
	return &quire.SiteSpace{ID: id, Path: path, Condition: condition, Default: isDefault}
}

func section(id, path, condition string, isDefault bool, spaces ...*quire.SiteSpace) *quire.SiteSection {
	return &quire.SiteSection{ID: id, Path: path, Condition: condition, Default: isDefault, SiteSpaces: spaces}
}

// sectioned is a site with sections: a default one with a site space only
// beta visitors see, one for beta visitors, one whose default site space
// only staff see, one with nothing but staff's, and one in a group.
func sectioned() *quire.SiteStructure {
	return &quire.SiteStructure{Items: []quire.SiteItem{
		{Section: section("guides", "guides", "", true,
			siteSpace("g-v1", "v1", "", true), siteSpace("g-v2", "v2", "beta", false))},
		{Section: section("api", "api", "beta", false, siteSpace("a-main", "main", "", true))},
		{Section: section("ops", "ops", "", false,
			siteSpace("o-main", "main", "staff", true), siteSpace("o-extra", "extra", "", false))},
		{Section: section("staff", "x", "", false, siteSpace("x-main", "main", "staff", true))},
		{Group: &quire.SiteSectionGroup{ID: "group", Sections: []*quire.SiteSection{
			section("ref", "ref", "", false, siteSpace("r-main", "main", "", true))}}},
	}}
}

// hiddenDefault is a site whose default section only beta visitors see.
func hiddenDefault() *quire.SiteStructure {
	return &quire.SiteStructure{Items: []quire.SiteItem{
		{Section: section("beta", "beta", "beta", true, siteSpace("b-main", "main", "", true))},
		{Section: section("public", "public", "", false, siteSpace("p-main", "main", "", true))},
	}}
}

// rooted is a site without sections, with a site space for beta visitors.
func rooted() *quire.SiteStructure {
	return &quire.SiteStructure{SiteSpaces: []*quire.SiteSpace{
		siteSpace("main", "main", "", true), siteSpace("beta", "beta", "beta", false),
	}}
}

func TestLocate(t *testing.T) {
	anyone, beta, staff := visitor(), visitor("beta"), visitor("staff")
	tests := []struct {
		name      string
		st        *quire.SiteStructure
		path      string
		sees      Sees
		found     bool
		section   string // "" on a site without sections
		siteSpace string
		pagePath  string
		base      string
	}{
		{"root", sectioned(), "", anyone, true, "guides", "g-v1", "", ""},
		{"root slash", sectioned(), "/", anyone, true, "guides", "g-v1", "", ""},
		{"default page", sectioned(), "install/linux", anyone, true, "guides", "g-v1", "install/linux", ""},
		{"trailing slashes", sectioned(), "//install/linux//", anyone, true, "guides", "g-v1", "install/linux", ""},
		{"default section's own path is a page path", sectioned(), "guides/x", anyone, true, "guides", "g-v1", "guides/x", ""},
		{"default site space's own path is a page path", sectioned(), "v1/x", anyone, true, "guides", "g-v1", "v1/x", ""},
		{"conditional site space hidden", sectioned(), "v2/intro", anyone, true, "guides", "g-v1", "v2/intro", ""},
		{"conditional site space seen", sectioned(), "v2/intro", beta, true, "guides", "g-v2", "intro", "v2/"},
		{"conditional section hidden", sectioned(), "api/", anyone, true, "guides", "g-v1", "api", ""},
		{"conditional section seen", sectioned(), "api/", beta, true, "api", "a-main", "", "api/"},
		{"conditional section page", sectioned(), "api/auth/tokens", beta, true, "api", "a-main", "auth/tokens", "api/"},
		{"hidden default site space", sectioned(), "ops/a", anyone, true, "ops", "o-extra", "a", "ops/extra/"},
		{"seen default site space", sectioned(), "ops/a", staff, true, "ops", "o-main", "a", "ops/"},
		{"named site space", sectioned(), "ops/extra/a/b", staff, true, "ops", "o-extra", "a/b", "ops/extra/"},
		{"section with nothing seen", sectioned(), "x/a", anyone, true, "guides", "g-v1", "x/a", ""},
		{"section with its site space seen", sectioned(), "x/a", staff, true, "staff", "x-main", "a", "x/"},
		{"section in a group", sectioned(), "ref/a", anyone, true, "ref", "r-main", "a", "ref/"},
		{"unknown path", sectioned(), "nowhere/a", anyone, true, "guides", "g-v1", "nowhere/a", ""},
		{"prefix of a section's path", sectioned(), "op/a", anyone, true, "guides", "g-v1", "op/a", ""},
		{"hidden default section gives way", hiddenDefault(), "", anyone, true, "public", "p-main", "", "public/"},
		{"hidden default section, page", hiddenDefault(), "a", anyone, true, "public", "p-main", "a", "public/"},
		{"hidden default section, own path", hiddenDefault(), "public/a", anyone, true, "public", "p-main", "a", "public/"},
		{"seen default section", hiddenDefault(), "a", beta, true, "beta", "b-main", "a", ""},
		{"root site", rooted(), "a/b", anyone, true, "", "main", "a/b", ""},
		{"root site, conditional space hidden", rooted(), "beta/a", anyone, true, "", "main", "beta/a", ""},
		{"root site, conditional space seen", rooted(), "beta/a/", beta, true, "", "beta", "a", "beta/"},
		{"nothing seen", &quire.SiteStructure{SiteSpaces: []*quire.SiteSpace{siteSpace("s", "s", "staff", true)}}, "a", anyone, false, "", "", "", ""},
		{"no section seen", &quire.SiteStructure{Items: []quire.SiteItem{{Section: section("s", "s", "staff", true, siteSpace("m", "m", "", true))}}}, "", anyone, false, "", "", "", ""},
		{"empty site", &quire.SiteStructure{}, "a", anyone, false, "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc, ok := Locate(tt.st, tt.path, tt.sees)
			if ok != tt.found {
				t.Fatalf("found %v, want %v", ok, tt.found)
			}
			if !ok {
				return
			}
			var sec string
			if loc.Section != nil {
				sec = loc.Section.ID
			}
			if sec != tt.section || loc.SiteSpace.ID != tt.siteSpace || loc.PagePath != tt.pagePath || loc.BasePath() != tt.base {
				t.Errorf("got section %q, site space %q, page path %q, base %q; want %q, %q, %q, %q",
					sec, loc.SiteSpace.ID, loc.PagePath, loc.BasePath(), tt.section, tt.siteSpace, tt.pagePath, tt.base)
			}
		})
	}
}

// TestLocateComplete: a location is complete once no further segment could
// name another section or site space the visitor sees.
func TestLocateComplete(t *testing.T) {
	anyone, beta, staff := visitor(), visitor("beta"), visitor("staff")
	single := &quire.SiteStructure{SiteSpaces: []*quire.SiteSpace{siteSpace("main", "main", "", true)}}
	tests := []struct {
		name string
		st   *quire.SiteStructure
		path string
		sees Sees
		want bool
	}{
		{"root of a site with sections", sectioned(), "", anyone, false},
		{"page of the default section", sectioned(), "install", anyone, true},
		{"named section, one site space", sectioned(), "ref", anyone, true},
		{"named section, another site space may follow", sectioned(), "ops", staff, false},
		{"named section, the other site space hidden", sectioned(), "ops", anyone, true},
		{"named section and site space", sectioned(), "ops/extra", staff, true},
		{"default section, a site space may follow", sectioned(), "", beta, false},
		{"named site space", sectioned(), "v2", beta, true},
		{"root of a site with site spaces", rooted(), "", beta, false},
		{"root, the other site space hidden", rooted(), "", anyone, true},
		{"root site page", rooted(), "a", beta, true},
		{"one site space", single, "", anyone, true},
		{"default section of two", hiddenDefault(), "", beta, false},
		{"only one section seen", hiddenDefault(), "", anyone, true},
		{"named section of two", hiddenDefault(), "public", beta, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc, ok := Locate(tt.st, tt.path, tt.sees)
			if !ok {
				t.Fatal("not found")
			}
			if loc.Complete != tt.want {
				t.Errorf("complete %v, want %v (%+v)", loc.Complete, tt.want, loc)
			}
		})
	}
}

func TestLocations(t *testing.T) {
	tests := []struct {
		name string
		st   *quire.SiteStructure
		sees Sees
		want []string // section/site space ids
	}{
		{"anyone", sectioned(), visitor(), []string{"guides/g-v1", "ops/o-extra", "ref/r-main"}},
		{"beta", sectioned(), visitor("beta"), []string{"guides/g-v1", "guides/g-v2", "api/a-main", "ops/o-extra", "ref/r-main"}},
		{"staff", sectioned(), visitor("staff"), []string{"guides/g-v1", "ops/o-main", "ops/o-extra", "staff/x-main", "ref/r-main"}},
		{"root site", rooted(), visitor(), []string{"/main"}},
		{"root site, beta", rooted(), visitor("beta"), []string{"/main", "/beta"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, l := range Locations(tt.st, tt.sees) {
				var sec string
				if l.Section != nil {
					sec = l.Section.ID
				}
				got = append(got, sec+"/"+l.SiteSpace.ID)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("got %v, want %v", got, tt.want)
				}
			}
		})
	}
}
