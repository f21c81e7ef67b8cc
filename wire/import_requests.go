package wire

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// The request bodies of imports (contract §4.4, §4.5), import runs, Git
// sync and uploads.

// CheckImport validates what an import is asked for: the URL to start from,
// of at most 2048 characters, and its source, which must be website (the
// only kind Quire imports).
func CheckImport(url, source *string) error {
	switch {
	case url == nil || *url == "":
		return quire.Errorf(quire.CodeInvalid, "url: is required")
	case len(*url) > 2048:
		return quire.Errorf(quire.CodeInvalid, "url: must be at most 2048 characters")
	case source == nil:
		return quire.Errorf(quire.CodeInvalid, "source: is required")
	case *source != "website":
		return quire.Errorf(quire.CodeInvalid, "source: must be website")
	}
	return nil
}

// ContentImportSource is an import's source in its object form, the
// reference's ContentImportSource.
type ContentImportSource struct {
	Type  string   `json:"type"`
	URL   *string  `json:"url"`
	Files []string `json:"files"`
}

// decodeSource reads an import's source: the string "website" (the
// contract's form) or a ContentImportSource object.
func decodeSource(raw json.RawMessage) (str *string, obj *ContentImportSource, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return &s, nil, nil
	}
	var o ContentImportSource
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return nil, nil, quire.Errorf(quire.CodeInvalid, "source: must be \"website\" or an object {\"type\":\"website\",\"url\"} or {\"type\":\"file\",\"files\"}")
	}
	return nil, &o, nil
}

// ImportContent is the body of the import operations: url and source
// "website" (the contract's form), or source as the reference's
// ContentImportSource, {"type":"website","url"} or {"type":"file","files"}.
type ImportContent struct {
	URL    *string         `json:"url"`
	Source json.RawMessage `json:"source"`

	start string
	files []string
}

// Validate checks the source and leaves a website's URL or the files' keys
// for Start and Files.
func (b *ImportContent) Validate() error {
	str, obj, err := decodeSource(b.Source)
	if err != nil {
		return err
	}
	if obj == nil {
		if err := CheckImport(b.URL, str); err != nil {
			return err
		}
		b.start = *b.URL
		return nil
	}
	switch obj.Type {
	case "website":
		u := obj.URL
		if u == nil {
			u = b.URL
		}
		website := "website"
		if err := CheckImport(u, &website); err != nil {
			return quire.Errorf(quire.CodeInvalid, "source.%s", quire.ErrorMessage(err))
		}
		b.start = *u
	case "file":
		if b.URL != nil {
			return quire.Errorf(quire.CodeInvalid, "url: not taken with source type file")
		}
		if len(obj.Files) == 0 || len(obj.Files) > 50 {
			return quire.Errorf(quire.CodeInvalid, "source.files: 1 to 50 keys of uploaded files")
		}
		for i, k := range obj.Files {
			if k == "" || len(k) > 100 {
				return quire.Errorf(quire.CodeInvalid, "source.files[%d]: must be the key of an uploaded file", i)
			}
		}
		b.files = obj.Files
	default:
		return quire.Errorf(quire.CodeInvalid, "source.type: must be website or file")
	}
	return nil
}

// Start is the website a validated b imports, "" for files.
func (b *ImportContent) Start() string { return b.start }

// Files are the keys of the uploaded files a validated b imports, nil for
// a website.
func (b *ImportContent) Files() []string { return b.files }

// StartImportRun is the body of POST /org/{organizationId}/imports, the
// reference's startImportRun.
type StartImportRun struct {
	Source json.RawMessage `json:"source"`
	Target *struct {
		Space         *string `json:"space"`
		ChangeRequest *string `json:"changeRequest"`
		Page          *string `json:"page"`
	} `json:"target"`
	Site *string `json:"site"`
	// Enhance asks GitBook's AI to rework the pages; Quire imports them as
	// they are, so it is taken and ignored.
	Enhance *bool `json:"enhance"`

	start string
}

// Validate checks the source (a website), then the target.
func (b *StartImportRun) Validate() error {
	str, obj, err := decodeSource(b.Source)
	switch {
	case err != nil:
		return err
	case str != nil || obj == nil:
		return quire.Errorf(quire.CodeInvalid, "source: must be an object {\"type\":\"website\",\"url\"}")
	case obj.Type == "file":
		return quire.Errorf(quire.CodeInvalid, "source.type: import runs import websites; import uploaded files with POST /v1/spaces/{spaceId}/content/import")
	case obj.Type != "website":
		return quire.Errorf(quire.CodeInvalid, "source.type: must be website")
	}
	website := "website"
	if err := CheckImport(obj.URL, &website); err != nil {
		return quire.Errorf(quire.CodeInvalid, "source.%s", quire.ErrorMessage(err))
	}
	b.start = *obj.URL
	switch {
	case b.Target == nil:
		return quire.Errorf(quire.CodeInvalid, "target: is required")
	case b.Target.Space == nil || *b.Target.Space == "":
		return quire.Errorf(quire.CodeInvalid, "target.space: is required")
	case b.Target.ChangeRequest != nil && *b.Target.ChangeRequest == "":
		return quire.Errorf(quire.CodeInvalid, "target.changeRequest: must not be empty")
	case b.Target.Page != nil:
		return quire.Errorf(quire.CodeInvalid, "target.page: importing below a page is not supported; the pages go to the top of the content")
	case b.Site != nil && *b.Site == "":
		return quire.Errorf(quire.CodeInvalid, "site: must not be empty")
	}
	return nil
}

// SourceURL is the website a validated b imports.
func (b *StartImportRun) SourceURL() string { return b.start }

// GitRepositoryInput is the body of git/import (the reference's
// ImportGitRepository) and git/export (ExportToGitRepository), with
// Quire's sync option.
type GitRepositoryInput struct {
	URL                  *string    `json:"url"`
	Ref                  *string    `json:"ref"`
	CommitMessage        *string    `json:"commitMessage"`
	RepoProjectDirectory *string    `json:"repoProjectDirectory"`
	Timestamp            *time.Time `json:"timestamp"`
	Standalone           *bool      `json:"standalone"`
	Force                *bool      `json:"force"`
	// Sync turns continuous two-way sync with the branch on or off.
	Sync *bool `json:"sync"`

	// Direction is store.GitDirImport or store.GitDirExport, the
	// operation's.
	Direction string `json:"-"`
}

// Validate checks the fields that need no server setting; the Syncer
// checks the rest (the URL against the server's rules).
func (b *GitRepositoryInput) Validate() error {
	if b.URL == nil {
		return quire.Errorf(quire.CodeInvalid, "url: is required")
	}
	if b.Ref == nil {
		return quire.Errorf(quire.CodeInvalid, "ref: is required")
	}
	if b.Direction == store.GitDirExport && b.CommitMessage == nil {
		return quire.Errorf(quire.CodeInvalid, "commitMessage: is required")
	}
	if b.Sync != nil && b.Standalone != nil && *b.Standalone && *b.Sync {
		return quire.Errorf(quire.CodeInvalid, "standalone: a standalone operation cannot turn sync on")
	}
	return nil
}

// Upload kinds: the files an upload's key may name.
const (
	UploadImportFile = "import_file"
	UploadFont       = "customization_font"
)

// CreateUpload is the body of POST /orgs/{id}/storage/upload, within the
// bounds the caller sets.
type CreateUpload struct {
	File *struct {
		Name *string  `json:"name"`
		Type *string  `json:"type"`
		Size *float64 `json:"size"`
	} `json:"file"`
	Kind *string `json:"kind"`

	MaxBytes     int64 `json:"-"` // one uploaded file
	MaxFontBytes int64 `json:"-"` // one font file
}

// Validate checks the file's name, type and size, then the kind and its
// bound.
func (b *CreateUpload) Validate() error {
	switch {
	case b.File == nil:
		return quire.Errorf(quire.CodeInvalid, "file: is required")
	case b.File.Name == nil || *b.File.Name == "" || len(*b.File.Name) > 255:
		return quire.Errorf(quire.CodeInvalid, "file.name: is required, at most 255 characters")
	case b.File.Type == nil || len(*b.File.Type) > 255:
		return quire.Errorf(quire.CodeInvalid, "file.type: is required, at most 255 characters")
	case b.File.Size == nil || *b.File.Size < 0 || *b.File.Size != float64(int64(*b.File.Size)):
		return quire.Errorf(quire.CodeInvalid, "file.size: is required, a whole number of bytes")
	case *b.File.Size > float64(b.MaxBytes):
		return quire.Errorf(quire.CodeTooLarge, "file.size: at most %d MiB", b.MaxBytes>>20)
	case b.Kind == nil:
		return quire.Errorf(quire.CodeInvalid, "kind: is required")
	case *b.Kind != UploadImportFile && *b.Kind != UploadFont:
		return quire.Errorf(quire.CodeInvalid, "kind: import_file or customization_font")
	case *b.Kind == UploadFont && *b.File.Size > float64(b.MaxFontBytes):
		return quire.Errorf(quire.CodeTooLarge, "file.size: a font file is at most %d MiB", b.MaxFontBytes>>20)
	}
	return nil
}
