package render

import "testing"

// openAPITests are OpenAPI blocks as Git Sync writes them.
var openAPITests = []struct{ name, md, want string }{
	{"operation", "{% openapi-operation spec=\"invoice4u-api\" path=\"/GetClearingAccount\" method=\"post\" %}\n{% endopenapi-operation %}\n",
		`openapi-operation{"method":"post","path":"/GetClearingAccount","ref":{"kind":"openapi","spec":"invoice4u-api"}}`},
	{"schemas", "{% openapi-schemas spec=\"jobs-api\" schemas=\"JobState,JobStatus,Job\" grouped=\"true\" %}\n{% endopenapi-schemas %}\n",
		`openapi-schemas{"grouped":true,"ref":{"kind":"openapi","spec":"jobs-api"},"schemas":["JobState","JobStatus","Job"]}`},
	{"schemas not grouped, or without it", "{% openapi-schemas spec=\"s\" schemas=\"wire\" grouped=\"false\" %}\n{% endopenapi-schemas %}\n\n" +
		"{% openapi-schemas spec=\"navixy-platform\" schemas=\"Zone,ZonePoint\" %}\n{% endopenapi-schemas %}\n",
		`openapi-schemas{"grouped":false,"ref":{"kind":"openapi","spec":"s"},"schemas":["wire"]} openapi-schemas{"ref":{"kind":"openapi","spec":"navixy-platform"},"schemas":["Zone","ZonePoint"]}`},
	{"webhook", "{% openapi-webhook spec=\"mindee-api\" name=\"inference-processed\" method=\"post\" %}\n{% endopenapi-webhook %}\n",
		`openapi-webhook{"method":"post","name":"inference-processed","ref":{"kind":"openapi","spec":"mindee-api"}}`},
	{"older openapi of a file", "{% openapi src=\"/files/f1\" path=\"/health\" method=\"get\" %}\n[f1](/files/f1)\n{% endopenapi %}\n",
		`swagger{"method":"get","path":"/health","ref":{"file":"f1","kind":"file"}}`},
	{"older openapi of a url", "{% openapi src=\"https://raw.example/openapi.yaml\" path=\"/chapters/{chapterId}/lessons\" method=\"get\" expanded=\"true\" %}\n" +
		"[https://raw.example/openapi.yaml](https://raw.example/openapi.yaml)\n{% endopenapi %}\n",
		`swagger{"expanded":true,"method":"get","path":"/chapters/{chapterId}/lessons","ref":{"kind":"url","url":"https://raw.example/openapi.yaml"}}`},
	{"tags as text", "\\{% openapi-operation spec=\"s\" path=\"/\" method=\"get\" %}\n\n\\{% endopenapi-operation %}\n",
		`paragraph["{% openapi-operation spec=\"s\" path=\"/\" method=\"get\" %}"] paragraph["{% endopenapi-operation %}"]`},
}

// openAPIReadTests are other markdown with OpenAPI blocks.
var openAPIReadTests = []struct{ name, md, want string }{
	{"the spec's link is not kept", "{% openapi-operation spec=\"mindee-api\" path=\"/v2/x\" method=\"post\" %}\n[OpenAPI mindee-api](https://api-v2.mindee.net/openapi.json)\n{% endopenapi-operation %}",
		`openapi-operation{"method":"post","path":"/v2/x","ref":{"kind":"openapi","spec":"mindee-api"}}`},
	{"the file's link is written again", "{% openapi src=\"logo.png\" path=\"/a\" method=\"get\" %}\n[logo](logo.png)\n{% endopenapi %}",
		`swagger{"method":"get","path":"/a","ref":{"file":"f1","kind":"file"}}`},
	{"empty schemas", "{% openapi-schemas spec=\"s\" schemas=\"\" %}\n{% endopenapi-schemas %}", `openapi-schemas{"ref":{"kind":"openapi","spec":"s"},"schemas":[]}`},
	{"without a required attribute it is text", "{% openapi-operation spec=\"s\" path=\"/a\" %}\n{% endopenapi-operation %}",
		`paragraph["{% openapi-operation spec=\"s\" path=\"/a\" %}"] paragraph["{% endopenapi-operation %}"]`},
	{"with another attribute it is text", "{% openapi-webhook spec=\"s\" name=\"n\" method=\"post\" x=\"1\" %}\n{% endopenapi-webhook %}",
		`paragraph["{% openapi-webhook spec=\"s\" name=\"n\" method=\"post\" x=\"1\" %}"] paragraph["{% endopenapi-webhook %}"]`},
	{"a name with spaces is text", "{% openapi-webhook Payment API name=\"n\" method=\"post\" %}\n[x](y)\n{% endopenapi-webhook %}",
		`paragraph["{% openapi-webhook Payment API name=\"n\" method=\"post\" %}"] paragraph[link{"ref":{"kind":"url","url":"y"}}["x"]] paragraph["{% endopenapi-webhook %}"]`},
	{"without its end tag it is text", "{% openapi-operation spec=\"s\" path=\"/a\" method=\"get\" %}", `paragraph["{% openapi-operation spec=\"s\" path=\"/a\" method=\"get\" %}"]`},
	{"in a tab it is its body", "{% tabs %}\n{% tab title=\"A\" %}\n{% openapi-operation spec=\"s\" path=\"/a\" method=\"get\" %}\n[OpenAPI s](https://x.example/s.json)\n{% endopenapi-operation %}\n{% endtab %}\n{% endtabs %}",
		`tabs[tabs-item{"title":"A"}[paragraph[link{"ref":{"kind":"url","url":"https://x.example/s.json"}}["OpenAPI s"]]]]`},
}

func TestOpenAPIRoundTrip(t *testing.T) { checkKind(t, outline, openAPITests, openAPIReadTests) }

func TestOpenAPIMarkdownErrors(t *testing.T) {
	op := func(typ string, data map[string]any) map[string]any {
		return map[string]any{"object": "block", "type": typ, "isVoid": true, "data": data}
	}
	spec := map[string]any{"kind": "openapi", "spec": "s"}
	for _, tt := range []struct {
		name string
		node map[string]any
		want string
	}{
		{"no spec", op("openapi-operation", map[string]any{"path": "/", "method": "get"}), "document.nodes[0].data.ref: must refer to an OpenAPI specification"},
		{"no path", op("openapi-operation", map[string]any{"ref": spec, "method": "get"}), "document.nodes[0].data.path: must be a string"},
		{"a schema with a comma", op("openapi-schemas", map[string]any{"ref": spec, "schemas": []any{"a,b"}}), `document.nodes[0].data.schemas[0]: must be a name without ","`},
		{"swagger of a spec", op("swagger", map[string]any{"ref": spec, "path": "/", "method": "get"}), "document.nodes[0].data.ref: must refer to a file or a URL"},
		{"in a tab", block("tabs", nil, []any{block("tabs-item", map[string]any{"title": "A"}, []any{op("openapi-webhook", map[string]any{"ref": spec, "name": "n", "method": "post"})})}),
			"document.nodes[0].nodes[0].nodes[0]: the schema allows no openapi-webhook block here"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Markdown(map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{tt.node}})
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
}
