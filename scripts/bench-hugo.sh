#!/usr/bin/env bash
# Benchmarks of published sites for the manual (docs/publishing/published-sites.md): a cached page against a bare
# net/http handler, an uncached 2 KB page, and all 1,000 pages of a site
# rendered once by Quire against Hugo building the same 1,000 markdown files.
#
# Hugo is installed with `go install` into a temporary GOBIN for the
# measurement only; it never becomes a dependency of Quire (go.mod is not
# touched). Set HUGO to an installed hugo binary to skip the install,
# HUGO_VERSION to choose another version (v0.166.0 and later need Go 1.27),
# RUNS for the number of timed Hugo builds, BENCHTIME for `go test`.
#
# Usage: scripts/bench-hugo.sh
set -euo pipefail
cd "$(dirname "$0")/.."

HUGO_VERSION="${HUGO_VERSION:-v0.165.0}"
RUNS="${RUNS:-5}"
BENCHTIME="${BENCHTIME:-2s}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

hugo="${HUGO:-}"
if [ -z "$hugo" ]; then
  echo "bench: installing hugo $HUGO_VERSION into $work/bin (a minute or more the first time)" >&2
  (cd "$work" && GOBIN="$work/bin" go install "github.com/gohugoio/hugo@$HUGO_VERSION")
  hugo="$work/bin/hugo"
fi
"$hugo" version >&2

# The same 1,000 pages as site/bench_test.go, as Hugo content.
site="$work/site"
go test -count=1 -run '^TestWriteHugoContent$' ./site/ -args -hugo-content "$site/content" >/dev/null
echo "bench: $(find "$site/content" -name '*.md' | wc -l) markdown files" >&2

# A layout doing what Quire's page does: title, canonical URL, skip link,
# the sidebar (top-level pages, the current page's ancestors opened),
# breadcrumbs, table of contents, previous and next, last updated.
mkdir -p "$site/layouts/_default" "$site/layouts/partials"
cat >"$site/hugo.toml" <<'EOF'
baseURL = "http://localhost:1313/"
title = "Handbook"
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]
[markup.highlight]
noClasses = false
[markup.tableOfContents]
startLevel = 2
endLevel = 3
EOF
cat >"$site/layouts/partials/page.html" <<'EOF'
<!doctype html>
<html lang="en" data-theme="light"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }} - {{ .Site.Title }}</title>
<meta name="description" content="{{ .Summary | plainify | truncate 160 }}">
<meta property="og:title" content="{{ .Title }}">
<link rel="canonical" href="{{ .Permalink }}">
<link rel="stylesheet" href="/site.css">
</head><body>
<a class="skip-link" href="#content">Skip to content</a>
<header class="site-header"><a class="site-title" href="{{ "/" | relURL }}">{{ .Site.Title }}</a>
<input id="search-input" type="search" placeholder="Search"></header>
<nav class="sidebar" aria-label="Pages">{{ partial "tree.html" (dict "pages" .Site.Home.Pages "current" .) }}</nav>
<main id="content">
<nav class="breadcrumbs">{{ range .Ancestors.Reverse }}{{ if not .IsHome }}<a href="{{ .RelPermalink }}">{{ .Title }}</a> / {{ end }}{{ end }}</nav>
<h1>{{ .Title }}</h1>
{{ .Content }}
<p class="updated">Last updated {{ .Lastmod.Format "January 2, 2006" }}</p>
<nav class="pagination">{{ with .PrevInSection }}<a rel="prev" href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}
{{ with .NextInSection }}<a rel="next" href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}</nav>
</main>
<nav class="toc">{{ .TableOfContents }}</nav>
</body></html>
EOF
cat >"$site/layouts/partials/tree.html" <<'EOF'
<ul>{{ range .pages }}<li><a href="{{ .RelPermalink }}"{{ if eq . $.current }} aria-current="page"{{ end }}>{{ .Title }}</a>
{{- if and .IsSection (or (eq . $.current) (.IsAncestor $.current)) }}{{ partial "tree.html" (dict "pages" .Pages "current" $.current) }}{{ end }}</li>{{ end }}</ul>
EOF
for kind in single list home; do
  echo '{{ partial "page.html" . }}' >"$site/layouts/_default/$kind.html"
done
cp "$site/layouts/_default/home.html" "$site/layouts/index.html"

# Time Hugo: one untimed build to warm the file system, then RUNS builds.
"$hugo" --quiet --source "$site" --destination "$work/public" >/dev/null
echo "bench: $(find "$work/public" -name 'index.html' | wc -l) pages built by hugo" >&2
hugo_ms=()
for _ in $(seq "$RUNS"); do
  rm -rf "$work/public"
  start=$(date +%s%N)
  "$hugo" --quiet --source "$site" --destination "$work/public"
  end=$(date +%s%N)
  hugo_ms+=($(( (end - start) / 1000000 )))
done
hugo_median=$(printf '%s\n' "${hugo_ms[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")

out="$work/bench.txt"
go test -count=1 -run '^$' -bench 'CachedPage|BareHandler|RenderPage2KB|RenderAll1000' -benchtime "$BENCHTIME" ./site/ | tee "$out"

ns() { awk -v name="$1" '$1 ~ "^"name"(-[0-9]+)?$" { for (i = 2; i < NF; i++) if ($(i+1) == "ns/op") { print $i; exit } }' "$out"; }
echo
echo "Hugo $HUGO_VERSION, $RUNS builds of 1,000 pages (ms): ${hugo_ms[*]}; median $hugo_median ms"
metric() { awk -v name="$1" -v unit="$2" '$1 ~ "^"name"(-[0-9]+)?$" { for (i = 2; i < NF; i++) if ($(i+1) == unit) { print $i; exit } }' "$out"; }
for mode in recorder loopback; do
  cached=$(ns "BenchmarkCachedPage/$mode")
  bare=$(ns "BenchmarkBareHandler/$mode")
  awk -v c="$cached" -v b="$bare" -v m="$mode" 'BEGIN { printf "cached page (%s): %.0f ns/op, bare handler %.0f ns/op, run apart: cached = %.2f x bare (goal >= 0.5)\n", m, c, b, b / c }'
  awk -v c="$(metric "BenchmarkCachedPage/vs-bare-$mode" cached-ns/req)" -v b="$(metric "BenchmarkCachedPage/vs-bare-$mode" bare-ns/req)" -v m="$mode" \
    'BEGIN { printf "cached page (%s), alternating with the bare handler: %.0f ns against %.0f ns: cached = %.2f x bare\n", m, c, b, b / c }'
done
for size in 50 1000; do
  awk -v n="$(ns "BenchmarkRenderPage2KB/site=$size")" -v s="$size" 'BEGIN { printf "uncached 2 KB page, %s-page site: %.3f ms (goal <= 1 ms)\n", s, n / 1e6 }'
done
for state in warm cold; do
  awk -v q="$(ns "BenchmarkRenderAll1000/$state")" -v h="$hugo_median" -v s="$state" \
    'BEGIN { printf "all 1,000 pages: Quire (%s) %.0f ms, Hugo %.0f ms: Quire = %.2f x Hugo (goal <= 1.0)\n", s, q / 1e6, h, q / 1e6 / h }'
done
