package quire

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// publishJSON decodes a valid publish body with change applied, as the API
// reads it.
func publishJSON(t *testing.T, change func(map[string]any)) *PublishIntegration {
	t.Helper()
	m := map[string]any{"organization": "acme", "title": "Slack", "description": "Chat", "script": "export default {}",
		"scopes": []any{"space:content:read"}}
	if change != nil {
		change(m)
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var b PublishIntegration
	if err := DecodeJSON(data, &b); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
	return &b
}

func TestPublishIntegrationValidate(t *testing.T) {
	block := func(id string) map[string]any { return map[string]any{"id": id, "title": "Block"} }
	source := func(id string) map[string]any {
		return map[string]any{"id": id, "title": "Source", "configuration": map[string]any{"componentId": "c"}}
	}
	config := func(v any) func(map[string]any) {
		return func(b map[string]any) { b["configurations"] = map[string]any{"space": v} }
	}
	property := func(p any) func(map[string]any) {
		return config(map[string]any{"properties": map[string]any{"p": p}})
	}
	many := func(n int, f func(i int) any) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		change func(map[string]any)
		want   string // the error message; "" when valid
	}{
		{"valid", nil, ""},
		{"no organization", func(b map[string]any) { delete(b, "organization") }, "organization: is required"},
		{"no title", func(b map[string]any) { delete(b, "title") }, "title: is required"},
		{"no description", func(b map[string]any) { delete(b, "description") }, "description: is required"},
		{"no script", func(b map[string]any) { delete(b, "script") }, "script: is required"},
		{"no scopes", func(b map[string]any) { delete(b, "scopes") }, "scopes: is required"},
		{"empty scopes", func(b map[string]any) { b["scopes"] = []any{} }, ""},
		{"bad runtime", func(b map[string]any) { b["runtime"] = "v3" }, "runtime: must be one of v1, v2"},
		{"bad visibility", func(b map[string]any) { b["visibility"] = "secret" }, "visibility: must be one of public, private, unlisted"},
		{"bad target", func(b map[string]any) { b["target"] = "page" }, "target: must be one of all, site, space, organization"},
		{"empty organization", func(b map[string]any) { b["organization"] = "" }, "organization: must be 1 to 255 characters"},
		{"short title", func(b map[string]any) { b["title"] = "S" }, "title: must be 2 to 30 characters"},
		{"long title", func(b map[string]any) { b["title"] = strings.Repeat("é", 31) }, "title: must be 2 to 30 characters"},
		{"title of two lines", func(b map[string]any) { b["title"] = "a\nb" }, "title: must not contain control characters"},
		{"description of two lines", func(b map[string]any) { b["description"] = "a\nb" }, ""},
		{"long description", func(b map[string]any) { b["description"] = strings.Repeat("a", 101) }, "description: must be at most 100 characters"},
		{"long summary", func(b map[string]any) { b["summary"] = strings.Repeat("a", 2049) }, "summary: must be at most 2048 characters"},
		{"empty script", func(b map[string]any) { b["script"] = "" }, "script: must not be empty"},
		{"long script", func(b map[string]any) { b["script"] = strings.Repeat("a", 4<<20+1) }, "script: must be at most 4194304 bytes"},
		{"bad scope", func(b map[string]any) { b["scopes"] = []any{"space:content:read", "root"} }, "scopes[1]: must be one of " + strings.Join(IntegrationScopes, ", ")},
		{"bad category", func(b map[string]any) { b["categories"] = []any{"games"} }, "categories[0]: must be one of analytics, collaboration, content, marketing, visitor-auth, other"},
		{"four preview images", func(b map[string]any) { b["previewImages"] = []any{"a", "b", "c", "d"} }, "previewImages: at most 3 images"},

		{"blocks", func(b map[string]any) { b["blocks"] = []any{block("a"), block("b")} }, ""},
		{"too many blocks", func(b map[string]any) {
			b["blocks"] = many(101, func(i int) any { return block(string(rune('a' + i))) })
		}, "blocks: at most 100 blocks"},
		{"block without id", func(b map[string]any) { b["blocks"] = []any{block("")} }, "blocks[0].id: must be 1 to 100 characters"},
		{"block with short title", func(b map[string]any) { b["blocks"] = []any{map[string]any{"id": "a", "title": "B"}} }, "blocks[0].title: must be 2 to 40 characters"},
		{"blocks with one id", func(b map[string]any) { b["blocks"] = []any{block("a"), block("a")} }, `blocks[1].id: "a" is the id of an earlier block`},
		{"block with too many patterns", func(b map[string]any) {
			b["blocks"] = []any{map[string]any{"id": "a", "title": "Block", "urlUnfurl": many(51, func(int) any { return "x.com" })}}
		}, "blocks[0].urlUnfurl: at most 50 patterns"},
		{"block with an empty pattern", func(b map[string]any) {
			b["blocks"] = []any{map[string]any{"id": "a", "title": "Block", "urlUnfurl": []any{"x.com", ""}}}
		}, "blocks[0].urlUnfurl[1]: must be 1 to 2048 characters"},
		{"block with markdown but no body", func(b map[string]any) {
			b["blocks"] = []any{map[string]any{"id": "a", "title": "Block", "markdown": map[string]any{"codeblock": "x"}}}
		}, "blocks[0].markdown: must have codeblock and body"},

		{"content sources", func(b map[string]any) { b["contentSources"] = []any{source("a"), source("b")} }, ""},
		{"content sources with one id", func(b map[string]any) { b["contentSources"] = []any{source("a"), source("a")} }, `contentSources[1].id: "a" is the id of an earlier content source`},
		{"content source without component", func(b map[string]any) { b["contentSources"] = []any{map[string]any{"id": "a", "title": "Source"}} }, "contentSources[0].configuration.componentId: is required"},
		{"too many content sources", func(b map[string]any) { b["contentSources"] = many(101, func(int) any { return source("a") }) }, "contentSources: at most 100 content sources"},

		{"external link", func(b map[string]any) {
			b["externalLinks"] = []any{map[string]any{"url": "https://x.com", "label": "X"}}
		}, ""},
		{"external link not http", func(b map[string]any) { b["externalLinks"] = []any{map[string]any{"url": "ftp://x.com", "label": "X"}} }, "externalLinks[0].url: must be an http or https URL of at most 2048 characters"},
		{"external link without label", func(b map[string]any) { b["externalLinks"] = []any{map[string]any{"url": "https://x.com"}} }, "externalLinks[0].label: must be 1 to 2048 characters"},
		{"six external links", func(b map[string]any) {
			b["externalLinks"] = many(6, func(int) any { return map[string]any{"url": "https://x.com", "label": "X"} })
		}, "externalLinks: at most 5 links"},

		{"configurations not an object", func(b map[string]any) { b["configurations"] = []any{} }, "configurations: must be an object"},
		{"configuration as component", config(map[string]any{"componentId": "c"}), ""},
		{"configuration with empty component", config(map[string]any{"componentId": ""}), "configurations.space.componentId: must be a non-empty string"},
		{"configuration as both", config(map[string]any{"componentId": "c", "properties": map[string]any{}}), "configurations.space: must have properties or componentId, not both"},
		{"configuration as neither", config(map[string]any{}), "configurations.space: must be an object with properties or with componentId"},
		{"configuration not an object", config("x"), "configurations.space: must be an object with properties or with componentId"},
		{"property without type", property(map[string]any{}), "configurations.space.properties.p.type: must be one of string, number, boolean, button"},
		{"property with type a number", property(map[string]any{"type": 1}), "configurations.space.properties.p.type: must be a string"},
		{"property not an object", property("x"), "configurations.space.properties.p: must be an object"},
		{"string property", property(map[string]any{"type": "string", "default": "x", "title": "Token"}), ""},
		{"string property with a number default", property(map[string]any{"type": "string", "default": 1}), "configurations.space.properties.p.default: must be a string"},
		{"number property with a string default", property(map[string]any{"type": "number", "default": "1"}), "configurations.space.properties.p.default: must be a number"},
		{"boolean property with a string default", property(map[string]any{"type": "boolean", "default": "true"}), "configurations.space.properties.p.default: must be a boolean"},
		{"property with short title", property(map[string]any{"type": "string", "title": "T"}), "configurations.space.properties.p.title: must be 2 to 50 characters"},
		{"button without text", property(map[string]any{"type": "button", "callback_url": "/cb"}), "configurations.space.properties.p: a button must have callback_url and button_text"},
		{"required names a property", config(map[string]any{"properties": map[string]any{"p": map[string]any{"type": "string"}}, "required": []any{"p"}}), ""},
		{"required names another", config(map[string]any{"properties": map[string]any{"p": map[string]any{"type": "string"}}, "required": []any{"q"}}), "configurations.space.required[0]: must name a property, once"},
		{"required names one twice", config(map[string]any{"properties": map[string]any{"p": map[string]any{"type": "string"}}, "required": []any{"p", "p"}}), "configurations.space.required[1]: must name a property, once"},

		{"policy as string", func(b map[string]any) { b["contentSecurityPolicy"] = "default-src 'self'" }, ""},
		{"policy as object", func(b map[string]any) { b["contentSecurityPolicy"] = map[string]any{"script-src": "'self'"} }, ""},
		{"policy as number", func(b map[string]any) { b["contentSecurityPolicy"] = 1 }, "contentSecurityPolicy: must be a string or an object of strings"},

		{"secrets", func(b map[string]any) { b["secrets"] = map[string]any{"token": "x"} }, ""},
		{"too many secrets", func(b map[string]any) {
			s := map[string]any{}
			for i := range 21 {
				s[string(rune('a'+i))] = "x"
			}
			b["secrets"] = s
		}, "secrets: at most 20 secrets"},
		{"secret without name", func(b map[string]any) { b["secrets"] = map[string]any{"": "x"} }, "secrets: names must be 1 to 100 characters"},
		{"long secret", func(b map[string]any) { b["secrets"] = map[string]any{"token": strings.Repeat("x", 8<<10+1)} }, "secrets.token: must be at most 8192 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := publishJSON(t, tc.change).Validate()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if ErrorCode(err) != CodeInvalid || ErrorMessage(err) != tc.want {
				t.Fatalf("Validate() = %v (code %s), want %q", err, ErrorCode(err), tc.want)
			}
		})
	}
}

// TestPublishIntegrationDefaults: what Validate fills in and normalizes.
func TestPublishIntegrationDefaults(t *testing.T) {
	b := publishJSON(t, func(b map[string]any) {
		b["scopes"] = []any{"space:content:read", "site:metadata:read", "space:content:read"}
		b["configurations"] = map[string]any{"site": nil, "other": 1, "space": map[string]any{"componentId": "c"}}
		b["contentSecurityPolicy"] = map[string]any{"script-src": "'self'"}
	})
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	if *b.Runtime != "v1" || *b.Visibility != "private" || *b.Target != "all" || *b.Summary != "" {
		t.Errorf("defaults: runtime %q, visibility %q, target %q, summary %q", *b.Runtime, *b.Visibility, *b.Target, *b.Summary)
	}
	if want := []string{"space:content:read", "site:metadata:read"}; !slices.Equal(*b.Scopes, want) {
		t.Errorf("scopes = %q, want %q", *b.Scopes, want)
	}
	if b.Categories == nil || len(b.Categories) != 0 {
		t.Errorf("categories = %#v, want empty", b.Categories)
	}
	if got, want := string(b.Configurations), `{"space":{"componentId":"c"}}`; got != want {
		t.Errorf("configurations = %s, want %s", got, want)
	}
	if got, want := string(b.ContentSecurityPolicy), `{"script-src":"'self'"}`; got != want {
		t.Errorf("contentSecurityPolicy = %s, want %s", got, want)
	}

	none := publishJSON(t, func(b map[string]any) {
		b["configurations"] = map[string]any{"account": nil}
		b["contentSecurityPolicy"] = nil
	})
	if err := none.Validate(); err != nil {
		t.Fatal(err)
	}
	if none.Configurations != nil || none.ContentSecurityPolicy != nil {
		t.Errorf("configurations %s and policy %s, want none", none.Configurations, none.ContentSecurityPolicy)
	}
}

func TestPublishIntegrationBlockDomains(t *testing.T) {
	b := publishJSON(t, func(b map[string]any) {
		b["blocks"] = []any{
			map[string]any{"id": "a", "title": "A", "urlUnfurl": []any{"https://*.figma.com/file/*", "https://figma.com/proto/*", "*"}},
			map[string]any{"id": "b", "title": "B", "urlUnfurl": []any{"https://youtu.be/*"}},
		}
	})
	if got, want := b.BlockDomains(), []string{"figma.com", "youtu.be"}; !slices.Equal(got, want) {
		t.Errorf("BlockDomains() = %q, want %q", got, want)
	}
}

func TestDecodeImage(t *testing.T) {
	pngOf := func(w, h int) []byte {
		var buf bytes.Buffer
		if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	small := pngOf(2, 3)
	for _, tc := range []struct {
		name, b64 string
		max       int
		want      string // the error message; "" when decoded
	}{
		{"png", base64.StdEncoding.EncodeToString(small), 1 << 20, ""},
		{"png unpadded", base64.RawStdEncoding.EncodeToString(small), 1 << 20, ""},
		{"not base64", "!!", 1 << 20, "icon: must be base64"},
		{"too many bytes", base64.StdEncoding.EncodeToString(small), len(small) - 1, "icon: must be at most " + strconv.Itoa(len(small)-1) + " bytes"},
		{"not an image", base64.StdEncoding.EncodeToString([]byte("hello")), 1 << 20, "icon: must be a GIF, JPEG or PNG image"},
		{"too wide", base64.StdEncoding.EncodeToString(pngOf(8193, 1)), 1 << 20, "icon: must be at most 8192 pixels either way"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, contentType, err := DecodeImage("icon", tc.b64, tc.max)
			if tc.want != "" {
				if ErrorCode(err) != CodeInvalid || ErrorMessage(err) != tc.want {
					t.Fatalf("DecodeImage() = %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil || contentType != "image/png" || !bytes.Equal(data, small) {
				t.Fatalf("DecodeImage() = %d bytes, %q, %v", len(data), contentType, err)
			}
		})
	}
}

func TestDecodeJSON(t *testing.T) {
	var v struct {
		Title string `json:"title"`
		Tags  []string
	}
	for body, want := range map[string]string{
		`{"title":"x"}`:        "",
		`{"title":`:            "body: malformed JSON at offset 9",
		`{"title":1}`:          "title: must be a string",
		`{"Tags":{}}`:          "Tags: must be an array",
		`[]`:                   "body: must be an object",
		`{"title":"x"} x`:      "body: malformed JSON at offset 15",
		`{"title":"x"}{}`:      "body: malformed JSON at offset 14",
		"{\"title\":\"\xff\"}": "",
	} {
		err := DecodeJSON([]byte(body), &v)
		if want == "" && err != nil || want != "" && (ErrorCode(err) != CodeInvalid || ErrorMessage(err) != want) {
			t.Errorf("DecodeJSON(%s) = %v, want %q", body, err, want)
		}
	}
	var o struct{ X Optional[string] }
	if err := DecodeJSON([]byte(`{"X":1}`), &o); ErrorCode(err) != CodeInvalid {
		t.Errorf("DecodeJSON into Optional = %v, want invalid", err)
	}
}

func TestIsNull(t *testing.T) {
	for raw, want := range map[string]bool{"": false, "null": true, " null\n": true, "{}": false, `"null"`: false} {
		if got := IsNull(json.RawMessage(raw)); got != want {
			t.Errorf("IsNull(%q) = %v, want %v", raw, got, want)
		}
	}
	if !IsNull(nil) {
		t.Error("IsNull(nil) = false")
	}
}

func TestCheckOneOf(t *testing.T) {
	if err := CheckOneOf("target", "site", IntegrationTargets); err != nil {
		t.Errorf("CheckOneOf(site) = %v", err)
	}
	if err := CheckOneOf("target", "Site", IntegrationTargets); ErrorMessage(err) != "target: must be one of all, site, space, organization" {
		t.Errorf("CheckOneOf(Site) = %v", err)
	}
}
