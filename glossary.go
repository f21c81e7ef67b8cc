package quire

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// CheckGlossaryTerms checks the terms of a glossary entry (the reference's
// GlossaryTranslations): language codes of TranslationLanguages to terms of
// 1 to 255 characters on one line; at least one. Of several faults, the one
// of the first language in sorted order is named, the same every time.
func CheckGlossaryTerms(field string, terms map[string]string) error {
	if len(terms) == 0 {
		return Errorf(CodeInvalid, "%s: must give the term in at least one language", field)
	}
	langs := make([]string, 0, len(terms))
	for lang := range terms {
		langs = append(langs, lang)
	}
	slices.Sort(langs)
	for _, lang := range langs {
		if !IsTranslationLanguage(lang) {
			return Errorf(CodeInvalid, "%s.%s: not a language; must be one of %s", field, lang, strings.Join(TranslationLanguages, ", "))
		}
		term := terms[lang]
		if n := utf8.RuneCountInString(term); n < 1 || n > 255 || strings.TrimSpace(term) == "" {
			return Errorf(CodeInvalid, "%s.%s: must be 1 to 255 characters", field, lang)
		}
		if err := CheckStrings(field+"."+lang, term); err != nil {
			return err
		}
		if strings.ContainsAny(term, "\r\n") {
			return Errorf(CodeInvalid, "%s.%s: must be on one line", field, lang)
		}
	}
	return nil
}
