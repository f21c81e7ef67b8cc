// Package wire holds the GitBook API's JSON shapes: the answers' struct
// types and the converters that build them from domain values (quire,
// content and store rows). It does no I/O and knows nothing of HTTP; api
// encodes what it builds, and authoring builds the merge rules' view of a
// change request with it, so both judge custom rules on one shape.
package wire

// Links builds the addresses answers carry; its methods convert domain
// values to their wire shapes.
type Links struct {
	// PublicURL is the server's public base URL, with no trailing slash.
	PublicURL string
	// FileURL, when set, is where a browser fetches the bytes of file
	// fileID of a revision without a token (api signs these addresses);
	// when nil, files' downloadURL is the API's download route, which
	// needs one.
	FileURL func(spaceID, revisionID, fileID string) string
}

// API is the address of path under the API's /v1.
func (l Links) API(path string) string { return l.PublicURL + "/v1" + path }
