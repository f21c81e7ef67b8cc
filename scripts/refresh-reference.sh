#!/bin/sh
# Rewrites api/testdata/openapi-served.json: the official OpenAPI document
# (../shared/reference/gitbook-openapi-0.202.0.json, or beside
# $QUIRE_REFERENCE) cut to the operations Quire serves today. Run it after
# serving a new operation of the official document; TestServedReferenceCopy
# fails until the copy is refreshed.
set -eu
cd "$(dirname "$0")/.."
go test ./api -run '^TestServedReferenceCopy$' -count=1 -args -update-reference
