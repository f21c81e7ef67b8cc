#!/usr/bin/env bash
# Compatibility test with GitBook's own CLI (issue 19): installs the real
# @gitbook/cli from npm (--ignore-scripts: its tunnel binary is not needed)
# into a temporary folder, starts a real `quire serve` on a temporary data
# folder, and runs what a user moving from GitBook runs: auth --endpoint,
# whoami, openapi publish (twice), publish of a small integration, tail
# (which reads the integration's events), unpublish. Any error fails.
#
#   scripts/gitbook-cli-test.sh            (from the repository root)
#   GITBOOK_CLI_VERSION=0.25.1 scripts/gitbook-cli-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

version="${GITBOOK_CLI_VERSION:-0.25.1}"
for tool in node npm curl go; do
  command -v "$tool" >/dev/null || { echo "gitbook-cli-test: $tool is required" >&2; exit 1; }
done

tmp=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "gitbook-cli-test: $*" >&2
  [ -f "$tmp/serve.log" ] && tail -n 20 "$tmp/serve.log" >&2
  exit 1
}

echo "gitbook-cli-test: installing @gitbook/cli@$version"
mkdir -p "$tmp/cli"
(cd "$tmp/cli" && npm init -y >/dev/null && npm install --ignore-scripts --no-audit --no-fund --loglevel=error "@gitbook/cli@$version" >/dev/null)
gitbook="$tmp/cli/node_modules/.bin/gitbook"
[ -x "$gitbook" ] || fail "no gitbook binary after npm install"

go build -o "$tmp/quire" ./cmd/quire
data="$tmp/data"
init=$("$tmp/quire" admin init --data "$data" --org "CLI Org" --email cli@example.com --name "Cli User")
org=$(node -e 'console.log(JSON.parse(process.argv[1]).organization.id)' "$init")
token=$(node -e 'console.log(JSON.parse(process.argv[1]).token)' "$init")

port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
endpoint="http://127.0.0.1:$port"
"$tmp/quire" serve --data "$data" --addr "127.0.0.1:$port" >"$tmp/serve.log" 2>&1 &
server=$!
for _ in $(seq 100); do
  curl -fsS "$endpoint/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done
curl -fsS "$endpoint/healthz" >/dev/null || fail "quire serve did not start"

# The CLI keeps its configuration under HOME and builds scripts under TMPDIR.
export HOME="$tmp/home" TMPDIR="$tmp" NO_COLOR=1
mkdir -p "$HOME"
run() {
  echo "+ gitbook $*"
  "$gitbook" "$@" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "gitbook $* failed"; }
  cat "$tmp/out"
}
expect() {
  grep -qF -- "$1" "$tmp/out" || fail "expected \"$1\" in the output"
}

run auth --endpoint "$endpoint" --token "$token"
expect "You are now authenticated as Cli User"
run whoami
expect "Email: cli@example.com"
expect "API: $endpoint"

cat >"$tmp/spec.yaml" <<'EOF'
openapi: 3.0.3
info: {title: Pets, version: 1.0.0}
paths:
  /pets:
    get:
      summary: List pets
      responses: {'200': {description: OK}}
EOF
for _ in 1 2; do
  run openapi publish "$tmp/spec.yaml" --spec pets --organization "$org"
  expect "published to $endpoint/o/$org/openapi/pets"
done

mkdir -p "$tmp/integration/src"
cat >"$tmp/integration/gitbook-manifest.yaml" <<EOF
name: cli-check
title: CLI check
description: Published by scripts/gitbook-cli-test.sh
script: ./src/index.ts
scopes:
  - space:content:read
organization: $org
visibility: private
EOF
echo 'export default { fetch: () => new Response("ok") };' >"$tmp/integration/src/index.ts"
cd "$tmp/integration"
run publish
expect "$endpoint/integrations/cli-check"

# The app pages the CLI printed show what was published, to a signed-in
# member: a one-time sign-in link shows a form whose POST sets the session.
link=$("$tmp/quire" admin login-link --data "$data" --email cli@example.com --public-url "$endpoint")
link=$(node -e 'console.log(JSON.parse(process.argv[1]).url)' "$link")
curl -fsS -c "$tmp/cookies" -b "$tmp/cookies" -o "$tmp/page.html" "$link" || fail "GET $link failed"
csrf=$(grep -o 'name="csrf" value="[^"]*"' "$tmp/page.html" | head -n 1 | sed 's/.*value="//; s/"$//')
curl -fsS -c "$tmp/cookies" -b "$tmp/cookies" -o /dev/null --data-urlencode "token=${link#*token=}" \
  --data-urlencode "csrf=$csrf" "$endpoint/signin/link" || fail "could not sign in with $link"
for page in "/o/$org/openapi/pets:API specification" "/integrations/cli-check:CLI check"; do
  curl -fsS -b "$tmp/cookies" "$endpoint${page%%:*}" -o "$tmp/page.html" || fail "GET ${page%%:*} failed"
  grep -qF "${page#*:}" "$tmp/page.html" || { head -c 2000 "$tmp/page.html"; fail "GET ${page%%:*} does not show ${page#*:}"; }
done

# Installing records an event; tail polls the events until interrupted.
curl -fsS -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d "{\"organization\":\"$org\"}" "$endpoint/v1/integrations/cli-check/installations" >/dev/null ||
  fail "could not install the integration"
echo "+ gitbook tail (interrupted after 6s)"
status=0
timeout --preserve-status -s INT 6 "$gitbook" tail >"$tmp/out" 2>&1 || status=$?
cat "$tmp/out"
[ "$status" -eq 0 ] || fail "gitbook tail exited with $status"
expect '[success]'
expect '"type":"installation_setup"'

echo "+ gitbook unpublish cli-check (confirmed)"
echo y | "$gitbook" unpublish cli-check >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "gitbook unpublish failed"; }
cat "$tmp/out"
expect 'Integration "cli-check" has been deleted'
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "$endpoint/v1/integrations/cli-check")
[ "$code" = 404 ] || fail "after unpublish, GET /v1/integrations/cli-check answered $code"

echo "gitbook-cli-test: ok (@gitbook/cli@$version)"
