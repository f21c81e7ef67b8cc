package quire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// TranslationLanguage is the settings of one target language in one of an
// organization's translation configurations (its translation settings id).
// Contract §2 Translation language settings, §4.18.
type TranslationLanguage struct {
	OrgID      string
	SettingsID string
	Language   string          // one of TranslationLanguages
	Document   json.RawMessage // the instructions: a checked JSON document
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// TranslationLanguages are the languages of the reference's schema
// TranslationLanguage.
var TranslationLanguages = []string{
	"en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko", "ar", "hi", "nl", "pl",
	"tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr",
	"lt", "lv", "et", "sl",
}

// IsTranslationLanguage reports whether v is one of TranslationLanguages.
func IsTranslationLanguage(v string) bool { return slices.Contains(TranslationLanguages, v) }

// CheckTranslationSettingsID validates a translation settings id: 1 to 100
// of a-z A-Z 0-9 _ and -, like the reference's entity ids.
func CheckTranslationSettingsID(field, v string) error {
	if v == "" || len(v) > 100 {
		return Errorf(CodeInvalid, "%s: must be 1 to 100 characters", field)
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return Errorf(CodeInvalid, "%s: must be letters, digits, '-' and '_'", field)
		}
	}
	return nil
}

// CheckInstructions validates the instructions of a translation language,
// a JSON document (CheckDocument) given in the field field, and returns
// them as sent, numbers and all, without the spaces.
func CheckInstructions(field string, raw json.RawMessage) (json.RawMessage, error) {
	if IsNull(raw) {
		return nil, Errorf(CodeInvalid, "%s: is required", field)
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	if err := CheckDocument(field, doc); err != nil {
		return nil, err
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return nil, err
	}
	return compact.Bytes(), nil
}

// maxDocumentDepth bounds how deeply a document's nodes may nest.
const maxDocumentDepth = 64

// CheckDocument validates the structure of a JSON document (decoded with
// encoding/json into any): {"object":"document","data":{…},"nodes":[blocks]}
// where a block is {"object":"block","type":…,"key"?,"isVoid"?,"data"?,
// "nodes"?} and nested nodes are blocks, inlines (the same fields, object
// "inline") or texts ({"object":"text","leaves":[{"object":"leaf",
// "text":…,"marks"?:[{"object":"mark","type":…}]}]}), whose strings hold no
// control characters but line breaks (CheckStrings). The message names the
// place at fault, under field.
func CheckDocument(field string, v any) error {
	if err := CheckStrings(field, v); err != nil {
		return err
	}
	doc, ok := v.(map[string]any)
	if !ok {
		return Errorf(CodeInvalid, "%s: must be a document object", field)
	}
	if doc["object"] != "document" {
		return Errorf(CodeInvalid, "%s.object: must be \"document\"", field)
	}
	if d, ok := doc["data"]; ok {
		data, ok := d.(map[string]any)
		if !ok {
			return Errorf(CodeInvalid, "%s.data: must be an object", field)
		}
		if sv, ok := data["schemaVersion"]; ok {
			if _, ok := sv.(float64); !ok {
				return Errorf(CodeInvalid, "%s.data.schemaVersion: must be a number", field)
			}
		}
	}
	nodes, ok := doc["nodes"].([]any)
	if !ok {
		return Errorf(CodeInvalid, "%s.nodes: must be an array of blocks", field)
	}
	for i, n := range nodes {
		if err := checkNode(fmt.Sprintf("%s.nodes[%d]", field, i), n, true, 1); err != nil {
			return err
		}
	}
	return nil
}

// checkNode validates one node; at the top of a document only blocks may stand.
func checkNode(at string, v any, top bool, depth int) error {
	if depth > maxDocumentDepth {
		return Errorf(CodeInvalid, "%s: nodes may nest at most %d deep", at, maxDocumentDepth)
	}
	n, ok := v.(map[string]any)
	if !ok {
		return Errorf(CodeInvalid, "%s: must be an object", at)
	}
	switch obj := n["object"]; {
	case obj == "block" || obj == "inline" && !top:
		if t, ok := n["type"].(string); !ok || t == "" {
			return Errorf(CodeInvalid, "%s.type: must be a non-empty string", at)
		}
		if k, ok := n["key"]; ok {
			if _, ok := k.(string); !ok {
				return Errorf(CodeInvalid, "%s.key: must be a string", at)
			}
		}
		if iv, ok := n["isVoid"]; ok {
			if _, ok := iv.(bool); !ok {
				return Errorf(CodeInvalid, "%s.isVoid: must be a boolean", at)
			}
		}
		if d, ok := n["data"]; ok {
			if _, ok := d.(map[string]any); !ok {
				return Errorf(CodeInvalid, "%s.data: must be an object", at)
			}
		}
		if ns, ok := n["nodes"]; ok {
			children, ok := ns.([]any)
			if !ok {
				return Errorf(CodeInvalid, "%s.nodes: must be an array", at)
			}
			for i, c := range children {
				if err := checkNode(fmt.Sprintf("%s.nodes[%d]", at, i), c, false, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	case obj == "text" && !top:
		leaves, ok := n["leaves"].([]any)
		if !ok {
			return Errorf(CodeInvalid, "%s.leaves: must be an array", at)
		}
		for i, l := range leaves {
			if err := checkLeaf(fmt.Sprintf("%s.leaves[%d]", at, i), l); err != nil {
				return err
			}
		}
		return nil
	case top:
		return Errorf(CodeInvalid, "%s.object: must be \"block\"", at)
	default:
		return Errorf(CodeInvalid, "%s.object: must be \"block\", \"inline\" or \"text\"", at)
	}
}

func checkLeaf(at string, v any) error {
	l, ok := v.(map[string]any)
	if !ok || l["object"] != "leaf" {
		return Errorf(CodeInvalid, "%s.object: must be \"leaf\"", at)
	}
	if _, ok := l["text"].(string); !ok {
		return Errorf(CodeInvalid, "%s.text: must be a string", at)
	}
	ms, ok := l["marks"]
	if !ok {
		return nil
	}
	marks, ok := ms.([]any)
	if !ok {
		return Errorf(CodeInvalid, "%s.marks: must be an array", at)
	}
	for i, m := range marks {
		mark, ok := m.(map[string]any)
		if !ok || mark["object"] != "mark" {
			return Errorf(CodeInvalid, "%s.marks[%d].object: must be \"mark\"", at, i)
		}
		if t, ok := mark["type"].(string); !ok || t == "" {
			return Errorf(CodeInvalid, "%s.marks[%d].type: must be a non-empty string", at, i)
		}
	}
	return nil
}
