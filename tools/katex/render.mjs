// render.mjs pre-renders the TeX in Margin's lesson prose with KaTeX, so the
// pages show typeset math with no client-side JavaScript.
//
// Usage (from the repository root):
//
//	node tools/katex/render.mjs            render every internal/topics/*/prose/*.src.html
//	node tools/katex/render.mjs FILE...    render only these sources
//	node tools/katex/render.mjs --check    render in memory and fail if a committed
//	                                       <slug>.html differs (for CI)
//
// A source <slug>.src.html is an HTML fragment in which $$...$$ is display
// math and $...$ is inline math. Each span is replaced by
// katex.renderToString(tex, {output: "htmlAndMathml", displayMode, throwOnError: true})
// (plus strict: "error", so KaTeX's warnings fail too, and the shared macros
// \sgn and \R defined below) and the result is written to <slug>.html beside
// the source. Outside math,
// \$ is a literal dollar sign. Inside math, \$ is TeX's own dollar and does
// not end the span. Every dollar sign that reaches the output, from either
// source, is written as the entity &#36;, so the generated HTML contains no
// bare "$" at all. TeX is passed to KaTeX verbatim (write
// "<", not "&lt;", inside math). An inline span may not contain a blank line.
//
// Any KaTeX error, unterminated span or empty span aborts the run with a
// non-zero exit status naming the file, the line and the TeX; no file is
// written unless every source renders. The output depends only on the source
// bytes and the KaTeX version, both recorded in the first line, which
// internal/course tests against the source to catch a forgotten re-render.

import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import katex from "katex";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const topicsDir = join(root, "internal", "topics");
const srcSuffix = ".src.html";

// Macros shared by every lesson. A fresh copy is passed to each call because
// KaTeX may add to the object it is given (\gdef), which would make one
// span's output depend on the spans before it.
const macros = {
  "\\sgn": "\\operatorname{sgn}",
  "\\R": "\\mathbb{R}",
};

class RenderError extends Error {}

function lineOf(text, offset) {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function renderTeX(tex, displayMode, where) {
  if (tex.trim() === "") {
    throw new RenderError(`${where}: empty ${displayMode ? "$$...$$" : "$...$"} span`);
  }
  try {
    return katex.renderToString(tex, {
      output: "htmlAndMathml",
      displayMode,
      throwOnError: true,
      strict: "error",
      macros: { ...macros },
    });
  } catch (err) {
    throw new RenderError(`${where}: KaTeX: ${err.message}\n  TeX: ${tex}`);
  }
}

// closing returns the index of the next unescaped "$" (or "$$" when display)
// at or after from, skipping TeX escapes such as \$ and \\; -1 if none.
function closing(src, from, display) {
  for (let i = from; i < src.length; i++) {
    const c = src[i];
    if (c === "\\") {
      i++; // skip the escaped character
      continue;
    }
    if (c !== "$") continue;
    if (!display) return i;
    if (src[i + 1] === "$") return i;
  }
  return -1;
}

// mathText is the text of KaTeX's MathML, without the TeX annotation:
// "λ = 0.001" for \lambda = 0.001, "10^(−16)" for 10^{-16}, "x1" for x_1,
// entities kept as they are.
function mathText(html) {
  const m = /<math[^>]*>([\s\S]*?)<\/math>/.exec(html);
  if (!m) return "";
  const body = m[1].replace(/<annotation[\s\S]*?<\/annotation>/g, "");
  // A tree of the MathML elements: {tag, kids} with strings for text.
  const root = { tag: "", kids: [] };
  const stack = [root];
  for (const t of body.match(/<[^>]*>|[^<]+/g) || []) {
    if (t.startsWith("</")) stack.pop();
    else if (t.startsWith("<")) {
      const node = { tag: /^<([a-z]+)/.exec(t)[1], kids: [] };
      stack.at(-1).kids.push(node);
      if (!t.endsWith("/>")) stack.push(node);
    } else stack.at(-1).kids.push(t);
  }
  const text = (n) => {
    if (typeof n === "string") return n;
    const k = n.kids.map(text);
    const group = (s) => ([...s].length > 1 ? `(${s})` : s);
    if (n.tag === "msup" && k.length === 2) return k[0] + "^" + group(k[1]);
    if (n.tag === "mfrac" && k.length === 2) return group(k[0]) + "/" + group(k[1]);
    if (n.tag === "mo" && /^[=<>≤≥≈]$/.test(k.join(""))) return ` ${k.join("")} `;
    return k.join("");
  };
  return text(root).replace(/"/g, "&quot;").replace(/\s+/g, " ").trim();
}

// renderSource returns the generated HTML for one source file.
export function renderSource(src, name) {
  let out = "";
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === "\\" && src[i + 1] === "$") {
      out += "&#36;";
      i += 2;
      continue;
    }
    if (c !== "$") {
      out += c;
      i++;
      continue;
    }
    const display = src[i + 1] === "$";
    const open = display ? 2 : 1;
    const end = closing(src, i + open, display);
    const where = `${name}:${lineOf(src, i)}`;
    if (end < 0) {
      throw new RenderError(`${where}: unterminated ${display ? "$$" : "$"} (opened here)`);
    }
    const tex = src.slice(i + open, end);
    if (!display && /\n[ \t]*\n/.test(tex)) {
      throw new RenderError(`${where}: inline $ runs across a blank line; unbalanced $?\n  TeX: ${tex}`);
    }
    // A "$" in KaTeX's output (from TeX's \$) is written as an entity too,
    // so no bare "$" survives anywhere in the generated file.
    let html = renderTeX(tex, display, where).replaceAll("$", "&#36;");
    i = end + open;
    // A link whose whole text is math (<a href="?lambda=0.1">$\lambda = 0.1$</a>)
    // has no name axe finds in KaTeX's markup: the role math takes no name
    // from its content, and the visible KaTeX-HTML is aria-hidden. The
    // name goes on the <math> element, as the math in plain text, so the
    // link is named by its content. Not on the <a>: a link's aria-label
    // must contain its visible text (axe's label-content-name-mismatch,
    // WCAG 2.5.3), and "10^(−16)" does not contain the "10 −16" KaTeX
    // shows, nor does any plain spelling of a superscript or a fraction.
    const bare = /<a\b(?![^>]*\baria-label=)[^>]*>$/.exec(out);
    if (!display && bare && src.startsWith("</a>", i)) {
      html = html.replace(/^(<span class="katex"><span class="katex-mathml"><math\b[^>]*)>/, `$1 aria-label="${mathText(html)}">`);
    }
    // Punctuation right after inline math stays on its line: wrap the two
    // in a span that does not break.
    const punct = display ? null : /^[.,;:!?)]+/.exec(src.slice(i));
    if (punct) {
      out += `<span class="nowrap">${html}${punct[0]}</span>`;
      i += punct[0].length;
    } else {
      out += html;
    }
  }
  const sum = createHash("sha256").update(src).digest("hex");
  const header =
    `<!-- Code generated by tools/katex/render.mjs (KaTeX ${katex.version}) ` +
    `from ${name} sha256:${sum}; DO NOT EDIT. -->\n`;
  return header + out;
}

function main(argv) {
  const check = argv.includes("--check");
  let files = argv.filter((a) => a !== "--check");
  if (files.length === 0) {
    files = readdirSync(topicsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => {
        const dir = join(topicsDir, d.name, "prose");
        try {
          return readdirSync(dir).filter((f) => f.endsWith(srcSuffix)).map((f) => join(dir, f));
        } catch {
          return []; // a topic without prose
        }
      })
      .sort();
    if (files.length === 0) throw new RenderError(`no */prose/*${srcSuffix} files in ${relative(root, topicsDir)}`);
  }
  const results = [];
  for (const file of files) {
    if (!file.endsWith(srcSuffix)) throw new RenderError(`${file}: source files must end in ${srcSuffix}`);
    let html;
    try {
      html = renderSource(readFileSync(file, "utf8"), basename(file));
    } catch (err) {
      // Name the file as the user can open it, not just its base name.
      if (err instanceof RenderError) err.message = err.message.replace(basename(file), relative(process.cwd(), file));
      throw err;
    }
    results.push({ file: file.slice(0, -srcSuffix.length) + ".html", html });
  }
  let stale = 0;
  for (const { file, html } of results) {
    const rel = relative(process.cwd(), file);
    if (check) {
      let old = null;
      try {
        old = readFileSync(file, "utf8");
      } catch {
        // missing counts as stale
      }
      if (old !== html) {
        console.error(`${rel}: out of date; run node tools/katex/render.mjs`);
        stale++;
      }
      continue;
    }
    writeFileSync(file, html);
    console.log(`wrote ${rel}`);
  }
  if (stale > 0) process.exit(1);
}

try {
  main(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof RenderError)) throw err;
  console.error(`render.mjs: ${err.message}`);
  process.exit(1);
}
