package quire

import _ "embed"

// README is this README.md, built into the binary: the sample
// documentation quire demo publishes.
//
//go:embed README.md
var README string
