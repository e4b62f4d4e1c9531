// a11y.mjs runs Lighthouse's accessibility audit (axe-core's rules) on
// the index, every lesson and every demo's comparison of a running Margin
// at phone size (390×844) and on every presenter view at projector size
// (1280×720), prints each page's score and what failed, and exits
// non-zero when any page fails any audit: a score of 100 is not enough,
// since Lighthouse weighs some axe rules 0 (label-content-name-mismatch
// among them), so a page can fail one and still score 100.
//
// Usage (make a11y starts the server and runs this):
//
//	CHROME_PATH=/usr/bin/chromium node tools/lighthouse/a11y.mjs http://127.0.0.1:8090 [PATH...]
//
// With no PATH it walks the site as a reader would, so a new lesson or demo
// is audited without editing a list: the index and its lesson links, then
// each lesson's presenter-view and comparison links. One Chromium serves every run.

import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const base = (process.argv[2] || "http://127.0.0.1:8090").replace(/\/$/, "");
const only = process.argv.slice(3);

const phone = { mobile: true, width: 390, height: 844, deviceScaleFactor: 3, disabled: false };
const projector = { mobile: false, width: 1280, height: 720, deviceScaleFactor: 1, disabled: false };

// links returns the distinct paths on page path that match re (group 1).
async function links(path, re) {
  const res = await fetch(base + path);
  if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
  const html = await res.text();
  return [...new Set([...html.matchAll(re)].map((m) => m[1]))];
}

async function pages() {
  if (only.length > 0) return only.map((p) => ({ path: p, screen: p.startsWith("/present/") ? projector : phone }));
  const lessons = await links("/", /href="(\/lessons\/[a-z0-9-]+)"/g);
  const out = ["/", ...lessons].map((p) => ({ path: p, screen: phone }));
  for (const l of lessons) {
    for (const p of await links(l, /href="(\/present\/[a-z0-9-]+)"/g)) {
      if (!out.some((o) => o.path === p)) out.push({ path: p, screen: projector });
    }
    // Each demo's comparison, whose table the lesson page does not have.
    for (const p of await links(l, /href="(\/compare\/[a-z0-9-]+)"/g)) {
      if (!out.some((o) => o.path === p)) out.push({ path: p, screen: phone });
    }
  }
  return out;
}

// skipped are the audits that pass or fail nothing: a rule with nothing
// to check on the page, a check left to a person, a note.
const skipped = new Set(["notApplicable", "manual", "informative"]);

// failed reports whether audit a failed: a score under 1 (0 for a binary
// audit) on a rule that applies, whatever weight the category gives it.
function failed(a) {
  return !skipped.has(a.scoreDisplayMode) && a.score !== null && a.score < 1;
}

// failures lists the audits a page failed, with a few of the elements.
function failures(lhr) {
  const out = [];
  for (const ref of lhr.categories.accessibility.auditRefs) {
    const a = lhr.audits[ref.id];
    if (!failed(a)) continue;
    out.push(`    ${a.id}: ${a.title}`);
    for (const it of (a.details?.items || []).slice(0, 4)) {
      const n = it.node || {};
      out.push(`      ${(n.snippet || "").slice(0, 160)}`);
      if (n.explanation) out.push(`        ${n.explanation.split("\n").slice(0, 2).join(" ").slice(0, 200)}`);
    }
  }
  return out;
}

const list = await pages();
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH,
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"],
});
let bad = 0;
try {
  for (const { path, screen } of list) {
    const flags = {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["accessibility"],
      formFactor: screen.mobile ? "mobile" : "desktop",
      screenEmulation: screen,
    };
    // A run that fails (a page that loads too slowly on a busy machine)
    // has no score: it is tried once more, then reported as it failed.
    let r = await lighthouse(base + path, flags);
    if (r.lhr.runtimeError) r = await lighthouse(base + path, flags);
    if (r.lhr.runtimeError) {
      bad++;
      console.log(`  ?  ${path}: ${r.lhr.runtimeError.code} ${r.lhr.runtimeError.message}`);
      continue;
    }
    const score = Math.round(r.lhr.categories.accessibility.score * 100);
    const size = `${screen.width}×${screen.height}`;
    console.log(`${String(score).padStart(3)}  ${size.padEnd(9)} ${path}`);
    const f = failures(r.lhr);
    if (f.length > 0) {
      bad++;
      console.log(f.join("\n"));
    }
  }
} finally {
  await chrome.kill();
}
console.log(bad === 0 ? `all ${list.length} pages pass every audit` : `${bad} of ${list.length} pages fail an audit`);
process.exit(bad === 0 ? 0 : 1);
