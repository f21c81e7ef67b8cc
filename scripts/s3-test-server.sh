#!/usr/bin/env bash
# Builds the S3-compatible server the blob store's tests run against:
# versitygw (github.com/versity/versitygw, posix backend), from its Go
# module, into a cache folder, unless it is there already. Prints the
# binary's path; the tests read it from QUIRE_TEST_VERSITYGW and start their
# own servers on free loopback ports (internal/s3test).
#
# Usage: export QUIRE_TEST_VERSITYGW=$(scripts/s3-test-server.sh)
#        scripts/s3-test-server.sh serve DIR [ADDR]   (runs one by hand;
#        keys from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)
set -euo pipefail

VERSITYGW_VERSION="${VERSITYGW_VERSION:-v1.8.0}"
cache="${QUIRE_CI_CACHE:-$HOME/.cache/quire-ci}/versitygw-$VERSITYGW_VERSION"
bin="$cache/versitygw"
if [ ! -x "$bin" ]; then
  echo "s3-test-server: building versitygw $VERSITYGW_VERSION into $cache (minutes the first time)" >&2
  mkdir -p "$cache"
  # Outside the module, so Quire's go.mod is not touched.
  (cd "$cache" && GOBIN="$cache" GOFLAGS=-mod=mod go install "github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION")
fi

if [ "${1:-}" = serve ]; then
  dir="${2:?usage: $0 serve DIR [ADDR]}"
  mkdir -p "$dir"
  exec "$bin" --access "${AWS_ACCESS_KEY_ID:?}" --secret "${AWS_SECRET_ACCESS_KEY:?}" \
    --port "${3:-127.0.0.1:7070}" posix "$dir"
fi
echo "$bin"
