package quire

import (
	"net/url"
	"strings"
	"time"
)

// OpenAPISpec is an API specification of an organization: an OpenAPI 3.x or
// Swagger 2 document, given as text or fetched from a URL, processed in the
// background. Contract §2 API specification, §4.16.
type OpenAPISpec struct {
	ID    string
	OrgID string
	Slug  string
	// SourceURL is where the document is fetched from; "" for a text source.
	SourceURL string
	State     SpecState
	// LastVersion is the id of the newest version, the last document that
	// processed successfully; "" until one has.
	LastVersion string
	// LastProcessedAt is when processing last finished, successfully or not;
	// zero before it first has.
	LastProcessedAt time.Time
	// LastErrorCode is set when the last processing failed; the last good
	// version stays LastVersion.
	LastErrorCode SpecErrorCode
	// LastErrors are the first messages of the last failed processing, and
	// LastErrorCount how many there were in all.
	LastErrors     []string
	LastErrorCount int
	// Visibility says whether the spec's documents may be read without a
	// token, at their public URLs.
	Visibility SpecVisibility
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// SpecVisibility is an API specification's visibility, the reference's
// OpenAPISpecVisibility.
type SpecVisibility string

// Visibilities: readable by the organization's members (not guests) only,
// or by anyone with its public URL.
const (
	SpecPrivate SpecVisibility = "private"
	SpecPublic  SpecVisibility = "public"
)

// CheckSpecVisibility validates a visibility.
func CheckSpecVisibility(field string, v SpecVisibility) error {
	if v != SpecPrivate && v != SpecPublic {
		return Errorf(CodeInvalid, "%s: must be private or public", field)
	}
	return nil
}

// OpenAPISpecVersion is one successfully processed document of a spec.
type OpenAPISpecVersion struct {
	ID     string
	SpecID string
	// Hash is the hex SHA-256 of Document.
	Hash string
	// Format is the document's declared version: "2.0" for Swagger, else
	// its openapi field, e.g. "3.1.0".
	Format   string
	Document string // the document as given, JSON or YAML; empty in lists
	// JSONDocument is Document converted to JSON when it is YAML; "" when
	// Document is JSON already, and for versions processed before it was
	// kept. Empty in lists.
	JSONDocument string
	// SourceURL is the URL the document was fetched from; "" for a text
	// source, and for versions processed before it was kept.
	SourceURL string
	CreatedAt time.Time
}

// SpecState is an API specification's processingState. Contract §3 shows
// only pending; the reference adds progress and complete.
type SpecState string

// Processing states: queued, being processed, done (successfully or not:
// see LastErrorCode).
const (
	SpecPending  SpecState = "pending"
	SpecProgress SpecState = "progress"
	SpecComplete SpecState = "complete"
)

// SpecErrorCode says why processing failed: the reference's
// OpenAPISpecProcessingErrorCode enum, which has no other values.
type SpecErrorCode string

// Processing error codes. A document that is not OpenAPI, or is but does
// not validate, is a SpecParseError: the reference has no code of its own
// for an invalid one.
const (
	SpecFetchTimeout SpecErrorCode = "FETCH_TIMEOUT"
	SpecFetchError   SpecErrorCode = "FETCH_ERROR"
	SpecParseError   SpecErrorCode = "PARSE_ERROR"
)

// MaxSpecSlug is the longest slug an API specification may have.
const MaxSpecSlug = 100

// MaxSpecBytes bounds an API specification's document, given as text or
// fetched from a URL.
const MaxSpecBytes = 10 << 20

// CheckSpecSlug validates an API specification slug: 1 to 100 lowercase
// letters and digits in groups joined by single hyphens, the contract's
// ^[a-z0-9]+(?:-[a-z0-9]+)*$. The reference also allows capitals; the
// contract, which wins, does not.
func CheckSpecSlug(field, v string) error {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case c == '-' && i > 0 && i < len(v)-1 && v[i-1] != '-':
		default:
			return Errorf(CodeInvalid, "%s: must be lowercase letters and digits, in groups joined by single hyphens", field)
		}
	}
	if len(v) == 0 || len(v) > MaxSpecSlug { // all ASCII by now: bytes are characters
		return Errorf(CodeInvalid, "%s: must be 1 to %d characters", field, MaxSpecSlug)
	}
	return nil
}

// CheckSpecURL validates the URL an API specification is fetched from: an
// absolute http or https URL of up to 2048 characters (the reference's
// URL), without credentials. Whether the address may be fetched is the
// fetcher's to say, when processing.
func CheckSpecURL(field, v string) error {
	u, err := url.Parse(v)
	if err != nil || len(v) > 2048 || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return Errorf(CodeInvalid, "%s: must be an http or https URL of at most 2048 characters, without credentials", field)
	}
	return nil
}

// CheckSpecText validates an API specification given as text: 1 to
// MaxSpecBytes bytes, without NUL characters.
func CheckSpecText(field, t string) error {
	if len(t) == 0 || len(t) > MaxSpecBytes {
		return Errorf(CodeInvalid, "%s: must be 1 to %d bytes", field, MaxSpecBytes)
	}
	if strings.IndexByte(t, 0) >= 0 {
		return Errorf(CodeInvalid, "%s: must not contain NUL characters", field)
	}
	return nil
}

// CheckSpecAccess says whether member m may read the organization's API
// specifications (every member but guests) and, with change, change them
// (the create or admin role: the organization's createOpenAPISpec
// permission); CodeForbidden otherwise.
func CheckSpecAccess(m *Member, change bool) error {
	p := PermissionsOf(m)
	if !p.Access {
		return Errorf(CodeForbidden, "guests may not see the organization's API specifications")
	}
	if change && !p.CreateContent {
		return Errorf(CodeForbidden, "only members with the create or admin role may change API specifications")
	}
	return nil
}
