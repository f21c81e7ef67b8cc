#!/usr/bin/env node
// Opens every page of Quire's published sites through GitBook's own
// published-site renderer (issue 30), which the operator runs beside it:
// GitBook's open-source renderer (GitbookIO/gitbook, packages/gitbook),
// started with GITBOOK_API_URL=http://$QUIRE_ADDR. This script does not
// fetch or build the renderer; docs/publishing/gitbook-renderer.md says how
// to point one at Quire and which commit was tested.
//
// It builds and starts `quire demo` on QUIRE_ADDR with the public URL
// http://quire.test (the renderer refuses site URLs with a port), imports
// IMPORT_DIR (a folder in GitBook's Git Sync layout) into a second site when
// given, then asks the renderer for every page of both sites and fails when
// a page is not 200, when a block the page's markdown holds is missing from
// the HTML (hints, tabs, code titles, images), or when Quire's log shows an
// API answer of 5xx, or 4xx other than the 404s a renderer probes for.
//
//   RENDERER_URL=http://localhost:3000 QUIRE_ADDR=127.0.0.1:8090 \
//     IMPORT_DIR=path/to/gitbook-repo/docs node scripts/gitbook-renderer-check.mjs
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const renderer = (process.env.RENDERER_URL || "http://localhost:3000").replace(/\/$/, "");
const addr = process.env.QUIRE_ADDR || "127.0.0.1:8090";
const importDir = process.env.IMPORT_DIR || "";
const publicHost = "quire.test";
const api = `http://${addr}/v1`;
const tmp = mkdtempSync(join(tmpdir(), "renderer-check-"));
const log = join(tmp, "quire.log");

const fail = (msg) => {
  console.error(`gitbook-renderer-check: ${msg}`);
  process.exitCode = 1;
};

execFileSync("go", ["build", "-o", join(tmp, "quire"), "./cmd/quire"], { stdio: "inherit" });
const data = join(tmp, "data");
const out = [];
const server = spawn(join(tmp, "quire"), ["demo", "--addr", addr, "--data", data, "--public-url", `http://${publicHost}`]);
server.stdout.on("data", (b) => out.push(b));
server.stderr.on("data", (b) => writeFileSync(log, b, { flag: "a" }));
process.on("exit", () => {
  server.kill();
  if (!process.exitCode) rmSync(tmp, { recursive: true, force: true });
  else console.error(`gitbook-renderer-check: Quire's log and the pages are in ${tmp}`);
});

async function waitFor(url) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}
await waitFor(`http://${addr}/healthz`);
const banner = Buffer.concat(out).toString();
const token = banner.match(/quire_[A-Z0-9]+/)?.[0];
const demoSite = banner.match(/\/sites\/([a-z0-9]+)\//)?.[1];
if (!token || !demoSite) throw new Error(`quire demo printed no token or site:\n${banner}`);

async function call(method, path, body) {
  const res = await fetch(api + path, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body && JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

const sites = [demoSite];
if (importDir) {
  const org = (await call("GET", "/orgs")).items[0].id;
  const space = await call("POST", `/orgs/${org}/spaces`, { title: "Imported" });
  execFileSync(join(tmp, "quire"), ["space", "import", space.id, importDir, "--email", "ada@demo.localhost", "--data", data], { stdio: "inherit" });
  const site = await call("POST", `/orgs/${org}/sites`, { title: "Imported" });
  await call("POST", `/orgs/${org}/sites/${site.id}/site-spaces`, { spaceId: space.id });
  await call("PATCH", `/orgs/${org}/sites/${site.id}`, { visibility: "public" });
  await call("POST", `/orgs/${org}/sites/${site.id}/publish`);
  sites.push(site.id);
}

// What a page's markdown holds, and how the renderer's HTML shows it.
const blocks = [
  { name: "hint", md: /{% hint /, html: /class="[^"]*hint/ },
  { name: "tabs", md: /{% tabs %}/, html: /role="tablist"/ },
  { name: "image", md: /!\[[^\]]*\]\(|<img /, html: /<img /i },
];

// Every page of every space the sites publish, four at a time.
const jobs = [];
const org = (await call("GET", "/orgs")).items[0].id;
for (const siteId of sites) {
  const published = await call("GET", `/orgs/${org}/sites/${siteId}/published`);
  const spaceIds = new Set([...JSON.stringify(published.structure).matchAll(/"space":\{"object":"space","id":"([a-z0-9]+)"/g)].map((m) => m[1]));
  for (const spaceId of spaceIds) {
    const content = await call("GET", `/spaces/${spaceId}/content`);
    const walk = (list) => list.flatMap((p) => [...(p.type === "document" ? [p] : []), ...walk(p.pages || [])]);
    for (const page of walk(content.pages)) jobs.push({ siteId, spaceId, page });
  }
}
async function check({ siteId, spaceId, page }) {
  const url = `${renderer}/url/${publicHost}/sites/${siteId}/${page.path}`;
  let res, html;
  try {
    res = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(120_000) });
    html = await res.text();
  } catch (err) {
    return fail(`${url}: ${err.message}`);
  }
  if (res.status !== 200) return fail(`${res.status} ${url}`);
  const md = (await call("GET", `/spaces/${spaceId}/content/page/${page.id}?format=markdown`)).markdown || "";
  for (const b of blocks) {
    if (b.html && b.md.test(md) && !b.html.test(html)) fail(`${url}: the page's ${b.name} is not in the HTML`);
  }
}
let next = 0;
await Promise.all(Array.from({ length: 4 }, async () => {
  while (next < jobs.length) await check(jobs[next++]);
}));
const pages = jobs.length;

const apiErrors = readFileSync(log, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l))
  .filter((e) => e.msg === "request" && (e.status >= 500 || (e.status >= 400 && e.status !== 404)));
for (const e of apiErrors) fail(`Quire answered ${e.status} to ${e.method} ${e.path}`);
console.log(`gitbook-renderer-check: ${pages} pages of ${sites.length} sites, ${apiErrors.length} API errors`);
