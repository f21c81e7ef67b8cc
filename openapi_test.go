package quire

import (
	"regexp"
	"strings"
	"testing"
)

// specSlugPattern is the contract's pattern for API specification slugs
// (§2 API specification), the oracle CheckSpecSlug is held to.
var specSlugPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

func TestCheckSpecSlug(t *testing.T) {
	for _, tc := range []struct {
		slug string
		ok   bool
	}{
		{"petstore", true},
		{"a", true},
		{"0", true},
		{"pet-store-v2", true},
		{"a-b-c-1-2-3", true},
		{strings.Repeat("a", 100), true},
		{strings.Repeat("ab-", 33) + "a", true}, // 100 characters
		{"", false},
		{strings.Repeat("a", 101), false},
		{"Petstore", false}, // the reference allows capitals; the contract does not
		{"-pet", false},
		{"pet-", false},
		{"pet--store", false},
		{"pet_store", false},
		{"pet store", false},
		{"pet.store", false},
		{"pet/store", false},
		{"café", false},
		{"-", false},
		{"pet\x00", false},
	} {
		err := CheckSpecSlug("slug", tc.slug)
		if (err == nil) != tc.ok {
			t.Errorf("CheckSpecSlug(%q) = %v, want ok %v", tc.slug, err, tc.ok)
		}
		if err != nil && (ErrorCode(err) != CodeInvalid || !strings.HasPrefix(err.Error(), "slug: ")) {
			t.Errorf("CheckSpecSlug(%q) = %v: want a 400 naming the field", tc.slug, err)
		}
	}
}

// FuzzCheckSpecSlug holds CheckSpecSlug to the contract's pattern and
// bounds (1 to 100 characters): it accepts exactly the slugs they accept,
// and refuses the others as invalid input, never otherwise.
func FuzzCheckSpecSlug(f *testing.F) {
	for _, s := range []string{"petstore", "pet-store", "", "-", "a-", "-a", "a--b", "A", "a_b", "ü",
		strings.Repeat("a", 100), strings.Repeat("a", 101), strings.Repeat("a-", 50), "a\nb", "a-b\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, slug string) {
		err := CheckSpecSlug("slug", slug)
		want := specSlugPattern.MatchString(slug) && len(slug) <= MaxSpecSlug
		if (err == nil) != want {
			t.Fatalf("CheckSpecSlug(%q) = %v, want ok %v", slug, err, want)
		}
		if err != nil && ErrorCode(err) != CodeInvalid {
			t.Fatalf("CheckSpecSlug(%q): error %v has code %q, want %q", slug, err, ErrorCode(err), CodeInvalid)
		}
	})
}

func TestCheckSpecAccess(t *testing.T) {
	for _, tc := range []struct {
		role         Role
		disabled     bool
		read, change bool
	}{
		{RoleAdmin, false, true, true},
		{RoleCreate, false, true, true},
		{RoleEdit, false, true, false},
		{RoleRead, false, true, false},
		{RoleGuest, false, false, false},
		{RoleAdmin, true, false, false},
	} {
		m := &Member{Role: tc.role, Disabled: tc.disabled}
		if got := CheckSpecAccess(m, false) == nil; got != tc.read {
			t.Errorf("%s (disabled %v) reads: %v, want %v", tc.role, tc.disabled, got, tc.read)
		}
		if err := CheckSpecAccess(m, true); (err == nil) != tc.change || (err != nil && ErrorCode(err) != CodeForbidden) {
			t.Errorf("%s (disabled %v) changes: %v, want %v", tc.role, tc.disabled, err, tc.change)
		}
	}
}
