package pdf_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/pdf"
)

// TestCJKText: Chinese, Japanese and Korean, which DejaVu lacks, print in
// the fallback face as real text (pdftotext reads it back), beside Latin
// in the same line, in titles, the contents, emphasis, tables and code.
// A PDF without them does not embed the fallback face.
func TestCJKText(t *testing.T) {
	tree := &content.Tree{
		Pages: map[string]*content.Page{
			"zh": {ID: "zh", Title: "入门指南", Slug: "zh", Kind: content.KindDocument,
				Markdown: "欢迎使用 Quire 文档平台。**粗体中文** and *斜体*.\n\n| 名称 | 说明 |\n| --- | --- |\n| 版本 | 第二版 |\n\n```\n// 注释 comment\n```\n"},
			"ja": {ID: "ja", Title: "はじめに — カタカナ", Slug: "ja", Kind: content.KindDocument,
				Markdown: "日本語のテキストです。Mixed: ひらがな、カタカナ、漢字。\n\n한국어 문장입니다.\n"},
		},
		Root:  []string{"zh", "ja"},
		Files: map[string]*content.File{},
	}
	if err := tree.Validate(); err != nil {
		t.Fatal(err)
	}
	path := writePDF(t, source(tree, nil), pdf.Options{})
	pages := PDFText(t, path)
	all := strings.Join(pages, "\f")
	wantInOrder(t, all, "Contents", "入门指南", "はじめに — カタカナ",
		"入门指南", "欢迎使用 Quire 文档平台。", "粗体中文", "斜体", "名称", "说明", "版本", "第二版", "注释 comment",
		"はじめに — カタカナ", "日本語のテキストです。Mixed: ひらがな、カタカナ、漢字。", "한국어 문장입니다.")
	if raw, _ := os.ReadFile(path); !bytes.Contains(raw, []byte("/BaseFont /fallback")) {
		t.Errorf("the fallback face is not in the PDF: %q", baseFonts(raw))
	}

	latin, blobs := sampleTree(t)
	if raw, _ := os.ReadFile(writePDF(t, source(latin, blobs), pdf.Options{})); bytes.Contains(raw, []byte("/BaseFont /fallback")) {
		t.Error("a PDF without CJK text embeds the fallback face")
	}
}

// baseFonts lists the PDF's /BaseFont names.
func baseFonts(raw []byte) []string {
	var out []string
	for _, part := range bytes.Split(raw, []byte("/BaseFont"))[1:] {
		out = append(out, string(bytes.Fields(part)[0]))
	}
	return out
}
