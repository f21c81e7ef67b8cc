package authoring_test

import (
	"reflect"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
)

func TestMergeSettings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name             string
		base, over, want map[string]any
	}{
		{"adds", map[string]any{"a": 1}, map[string]any{"b": 2}, map[string]any{"a": 1, "b": 2}},
		{"replaces a value", map[string]any{"a": 1}, map[string]any{"a": 2}, map[string]any{"a": 2}},
		{"null removes", map[string]any{"a": 1, "b": 2}, map[string]any{"a": nil}, map[string]any{"b": 2}},
		{"objects merge key by key", map[string]any{"s": map[string]any{"x": 1, "y": 2}}, map[string]any{"s": map[string]any{"y": 3}},
			map[string]any{"s": map[string]any{"x": 1, "y": 3}}},
		{"a value replaces an object", map[string]any{"s": map[string]any{"x": 1}}, map[string]any{"s": "v"}, map[string]any{"s": "v"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := authoring.MergeSettings(tc.base, tc.over); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("MergeSettings = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestMergeOverrides(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name              string
		over, patch, want map[string]any
	}{
		{"adds", map[string]any{}, map[string]any{"title": "T"}, map[string]any{"title": "T"}},
		{"null drops the override", map[string]any{"title": "T", "b": 1}, map[string]any{"title": nil}, map[string]any{"b": 1}},
		{"objects merge key by key", map[string]any{"s": map[string]any{"x": 1}}, map[string]any{"s": map[string]any{"y": 2}},
			map[string]any{"s": map[string]any{"x": 1, "y": 2}}},
		{"an object left empty is dropped", map[string]any{"s": map[string]any{"x": 1}, "b": 1}, map[string]any{"s": map[string]any{"x": nil}},
			map[string]any{"b": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := authoring.MergeOverrides(tc.over, tc.patch); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("MergeOverrides = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCheckCustomization(t *testing.T) {
	t.Parallel()
	site := &quire.Site{Title: "Docs"}
	for _, tc := range []struct {
		name  string
		patch map[string]any
		want  string // the error, "" for none
	}{
		{"defaults", nil, ""},
		{"a theme", map[string]any{"styling": map[string]any{"theme": "muted"}}, ""},
		{"an unknown theme", map[string]any{"styling": map[string]any{"theme": "loud"}}, "styling.theme: "},
		{"a title not a string", map[string]any{"title": 3}, "title: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := authoring.CheckCustomization(authoring.MergeSettings(authoring.SiteSettings(site), tc.patch))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("CheckCustomization: %v", err)
				}
				return
			}
			if quire.ErrorCode(err) != quire.CodeInvalid || len(err.Error()) < len(tc.want) || err.Error()[:len(tc.want)] != tc.want {
				t.Fatalf("CheckCustomization = %v, want invalid %q…", err, tc.want)
			}
		})
	}
}

func TestSiteSettingsDefaults(t *testing.T) {
	t.Parallel()
	got := authoring.SiteSettings(&quire.Site{Title: "Docs"})
	if got["title"] != "Docs" || got["styling"].(map[string]any)["theme"] != "clean" {
		t.Fatalf("SiteSettings = %v, want the defaults titled Docs", got)
	}
	set := authoring.SiteSettings(&quire.Site{Title: "Docs", Customization: []byte(`{"title":"Own"}`)})
	if !reflect.DeepEqual(set, map[string]any{"title": "Own"}) {
		t.Fatalf("SiteSettings = %v, want the customization as set", set)
	}
}
