// Margin's demo script. Everything works without it (links and forms);
// with it: keyboard stepping, play/pause, click-to-edit points, copy link,
// and the server's refusals shown beside the control that asked.
// Steps themselves are server-rendered and swapped in by htmx.
(function () {
  "use strict";

  // ---- Which demo the keys drive ----------------------------------------
  //
  // A page may hold several demos. The keys drive the current one: the
  // demo last used (clicked, focused, stepped) while at least half of it
  // is in the window, else the one most in view. Only demos that step
  // count: a static demo has no steps to take. The current demo carries
  // the class "current" on its section, which the stylesheet outlines.
  var lastID = null;

  function sectionOf(p) { return p.closest(".demo") || p; }
  function steps(p) { return !!p.querySelector(".stepper"); }

  // seen is how much of p is in the window: the share of what could be
  // (a demo taller than the window counts as whole when it fills it), and
  // the pixels.
  function seen(p) {
    var r = sectionOf(p).getBoundingClientRect(), h = window.innerHeight;
    var px = Math.max(0, Math.min(r.bottom, h) - Math.max(r.top, 0));
    var room = Math.min(r.height, h);
    return { share: room > 0 ? px / room : 0, px: px };
  }

  function current() {
    var best = null, bestSeen = null, last = null;
    document.querySelectorAll(".demo-panel").forEach(function (p) {
      if (!steps(p)) return;
      var v = seen(p);
      if (v.px <= 0) return;
      if (p.id === lastID && v.share >= 0.5) last = p;
      if (!best || v.share > bestSeen.share || (v.share === bestSeen.share && v.px > bestSeen.px)) {
        best = p; bestSeen = v;
      }
    });
    return last || best;
  }

  // mark outlines the current demo, and stops a demo playing once it has
  // left the window.
  var shownID = null;
  function mark() {
    var p = current(), id = p ? p.id : null;
    if (timer) {
      var q = document.getElementById(playingID);
      if (!q || seen(q).px <= 0) setPlaying(false);
    }
    if (id === shownID && (!p || sectionOf(p).classList.contains("current"))) return;
    shownID = id;
    document.querySelectorAll(".demo.current").forEach(function (s) { s.classList.remove("current"); });
    if (p) sectionOf(p).classList.add("current");
  }
  var markQueued = false;
  function markSoon() {
    if (markQueued) return;
    markQueued = true;
    window.requestAnimationFrame(function () { markQueued = false; mark(); });
  }
  window.addEventListener("scroll", markSoon, { passive: true });
  window.addEventListener("resize", markSoon);
  document.addEventListener("DOMContentLoaded", mark);
  window.addEventListener("load", mark);

  function use(el) {
    var p = el && el.closest ? el.closest(".demo-panel") : null;
    if (!p) return;
    lastID = p.id;
    markSoon();
  }
  document.addEventListener("focusin", function (e) { use(e.target); });

  // ---- Steps and play -----------------------------------------------------

  // act follows control name's link in panel p. Presses that arrive while
  // a step is loading wait their turn (up to a few), so fast key repeats
  // never race the swap or fall back to a full page load.
  var busy = false, queued = [];
  function act(name, p, noQueue) {
    if (busy) {
      if (!noQueue && queued.length < 4) queued.push([name, p.id]);
      return true;
    }
    var a = p.querySelector('a[data-action="' + name + '"]');
    if (!a) return false;
    lastID = p.id;
    busy = true;
    go(a.getAttribute("hx-get") || a.getAttribute("href"), p.id).then(done, done);
    return true;
  }

  function done() {
    busy = false;
    while (queued.length) {
      var q = queued.shift(), p = document.getElementById(q[1]);
      if (p && act(q[0], p)) return;
    }
  }

  var timer = null, playingID = null;
  function speed(p) {
    var sel = p && p.querySelector('select[data-role="speed"]');
    if (p && speeds[p.id]) return speeds[p.id];
    return sel ? parseInt(sel.value, 10) : 500;
  }

  // setPlaying starts panel p playing, or stops whatever plays.
  function setPlaying(on, p) {
    if (timer) {
      window.clearInterval(timer);
      timer = null;
      queued = [];
      var was = document.getElementById(playingID);
      playingID = null;
      markPlay(was);
    }
    if (on && p) {
      playingID = p.id;
      lastID = p.id;
      // A tick that finds a step still loading skips its turn, so a slow
      // server slows playing down instead of piling up steps.
      timer = window.setInterval(function () {
        if (Date.now() < retryAt) return; // the server asked us to wait
        var q = document.getElementById(playingID);
        if (!q || !act("next", q, true)) setPlaying(false);
      }, speed(p));
      markPlay(p);
    }
  }

  function markPlay(p) {
    var b = p && p.querySelector('[data-action="play"]');
    if (!b) return;
    var on = !!timer && playingID === p.id;
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.textContent = on ? "⏸ Pause" : "▶ Play";
  }

  // ---- Keys ---------------------------------------------------------------
  //
  // → step, ← back, space play/pause, r reset; on a slides page (the
  // presenter view, a deck, an embed) also PageDown/PageUp, as a clicker
  // sends them. The rest (presenter.js's part below): f, +/−, n/p, h, b,
  // c, ? and Esc. A text or number box keeps its keys until Esc (which
  // leaves the box) or Enter (which applies it); a select, button, slider
  // or link that merely has focus after a click gives → and ← (and
  // PageDown/PageUp) to the demo, and keeps only the keys it acts on
  // itself.

  // released is a text box whose value was applied with Enter: the keys
  // are the demo's again until the reader types in it. (Enter in a
  // textarea is a new line, and releases nothing.)
  var released = null;

  function textual(t) {
    if (!t || !t.tagName) return false;
    if (t.isContentEditable || t.tagName === "TEXTAREA") return true;
    return t.tagName === "INPUT" &&
      !/^(button|submit|reset|checkbox|radio|range|color|file|image|hidden)$/i.test(t.type);
  }

  var stepKeys = { ArrowRight: 1, ArrowLeft: 1, PageDown: 1, PageUp: 1 };

  // keepsKey reports whether focused element t acts on key itself.
  function keepsKey(t, key) {
    if (!t || !t.tagName || stepKeys[key]) return false;
    if (key === " ") {
      if (t.dataset && t.dataset.action === "play") return false;
      return /^(BUTTON|SELECT|SUMMARY)$/.test(t.tagName) ||
        (t.tagName === "INPUT" && /^(checkbox|radio|button|submit|reset|file)$/i.test(t.type));
    }
    return t.tagName === "SELECT"; // a letter picks an option
  }

  // slides reports whether the page is shown as slides, where a clicker's
  // PageDown and PageUp step instead of scrolling.
  function slides() {
    return document.body.matches(".present, .deck, .embed, [data-slides]");
  }

  // revealLink is the "just show the step" link of the question waiting
  // on the current demo in predict mode (issue 20 §1), when key k should
  // follow it: a step forward (→, a clicker's PageDown) reveals the next
  // step instead of passing the question silently, and in the presenter
  // view Enter reveals it too, unscored, for a hall that answered aloud
  // (unless the focused control has an Enter of its own). Otherwise null.
  function revealLink(t, k) {
    if (k === "Enter") {
      if (!document.body.classList.contains("present") || (t && /^(A|BUTTON|SUMMARY|INPUT|SELECT)$/.test(t.tagName))) return null;
    } else if (k === "PageDown") {
      if (!slides()) return null;
    } else if (k !== "ArrowRight") {
      return null;
    }
    var p = current();
    return p && p.querySelector('[data-predict="question"] a[data-action="reveal"]');
  }

  document.addEventListener("input", function (e) { if (e.target === released) released = null; });

  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target, k = e.key;
    // A blank screen comes back on any key, which does nothing else.
    if (document.body.classList.contains("blank")) {
      e.preventDefault();
      document.body.classList.remove("blank");
      return;
    }
    if (t && t.closest && t.closest("dialog[open]")) {
      // The help dialog: ? closes it too; Esc and its button are its own.
      if (k === "?") { e.preventDefault(); toggleHelp(); }
      return;
    }
    if (textual(t) && t !== released) {
      if (k === "Escape") t.blur();
      else if (k === "Enter" && t.tagName === "INPUT") released = t;
      return;
    }
    if (k === "Escape") {
      // Esc leaves any control: the keys are the page's again.
      if (t && t !== document.body && t.blur) t.blur();
      return;
    }
    var reveal = revealLink(t, k);
    if (reveal) {
      e.preventDefault();
      reveal.click();
      return;
    }
    if (k === "Enter" || keepsKey(t, k)) return;
    if ((k === "PageDown" || k === "PageUp") && !slides()) return;
    if (pageKey(k)) { e.preventDefault(); return; }
    if (!stepKeys[k] && k !== " " && k !== "r" && k !== "R") return;
    var p = current();
    if (!p) {
      // A demo with no steps: a clicker moves on to the next demo.
      if (k === "PageDown" || k === "PageUp") { e.preventDefault(); follow(k === "PageDown" ? "next" : "prev"); }
      return;
    }
    e.preventDefault();
    lastID = p.id;
    mark();
    if (k === " ") { setPlaying(!(timer && playingID === p.id), p); return; }
    setPlaying(false);
    var name = k === "ArrowRight" || k === "PageDown" ? "next" : k === "ArrowLeft" || k === "PageUp" ? "prev" : "reset";
    // At the end of the run (or at its start) a clicker goes on to the
    // next (previous) demo or deck entry.
    if (!busy && (k === "PageDown" || k === "PageUp") && !p.querySelector('a[data-action="' + name + '"]')) {
      follow(name);
      return;
    }
    act(name, p);
  });

  // ---- Clicks -------------------------------------------------------------

  // Play/Pause toggles on the press, not on the click: while a demo plays
  // fast, a step can swap the button out between press and release, and
  // the click then never reaches it. A click from the keyboard (Enter or
  // space: e.detail 0) still toggles; a mouse click after a press toggled
  // is ignored.
  var pressedPlay = 0;
  document.addEventListener("pointerdown", function (e) {
    var t = e.button === 0 && e.target.closest ? e.target.closest('[data-action="play"]') : null;
    if (!t) return;
    use(t);
    var p = t.closest(".demo-panel");
    setPlaying(!(timer && playingID === p.id), p);
    pressedPlay = performance.now();
  });

  document.addEventListener("click", function (e) {
    use(e.target);
    var t = e.target.closest ? e.target.closest("[data-action]") : null;
    if (t && t.dataset.action === "play") {
      if (e.detail > 0 && performance.now() - pressedPlay < 2000) return;
      var p = t.closest(".demo-panel");
      setPlaying(!(timer && playingID === p.id), p);
      return;
    }
    if (t && t.dataset.action === "copy-link") {
      var url = new URL(t.dataset.href, window.location.href).href;
      if (navigator.clipboard) navigator.clipboard.writeText(url);
      var label = t.textContent;
      t.textContent = "copied";
      window.setTimeout(function () { t.textContent = label; }, 1500);
      return;
    }
    var svg = e.target.closest ? e.target.closest("figure.plot svg") : null;
    if (svg) plotClick(e, svg);
  });

  // A log slider writes 10^v, to three significant figures, into the
  // number input it serves, so the form (and the URL) carry the number.
  document.addEventListener("input", function (e) {
    var t = e.target;
    if (!t.matches || !t.matches("input[data-log-for]")) return;
    var num = t.form && t.form.querySelector('input[type="number"][name="' + t.dataset.logFor + '"]');
    if (!num) return;
    // A slider whose leftmost stop means 0 (a ridge λ).
    if (t.dataset.logZero && Number(t.value) <= Number(t.min)) { num.value = "0"; return; }
    num.value = String(Number(Math.pow(10, Number(t.value)).toPrecision(3)));
  });

  // ---- Sliders apply while dragged --------------------------------------
  //
  // A parameter's slider shows each value as the hand moves, as the
  // timeline does: the plot and what is beside it (not the form, whose
  // slider is under the hand), one request at a time and at most one
  // every slideGap ms, the newest value winning; the first moves the
  // address on (a history entry, through htmx, which keeps the page left
  // for Back), the rest replace it (history.replaceState: each would
  // otherwise have htmx copy the whole page into its history cache). On
  // release the whole panel comes, replacing the address: a drag is one
  // history entry. htmx's own change trigger on the form does not fire for
  // the slider (it would push the value a second time).
  var slideGap = 80;
  var slide = null; // {id, form, want, shown, pushed, inflight, released, last, timer}

  function slideURL(form) {
    var q = new URLSearchParams(new FormData(form)).toString();
    return form.getAttribute("hx-get") + (q ? "?" + q : "");
  }

  // preview shows state u's plot and what is beside it in panel s.id and
  // puts u's permalink in the address bar in place of the one there. It
  // resolves true once u is shown, false when the server asked to wait.
  // A value refused shows nothing: the release's request says why.
  function preview(s, u) {
    return window.fetch(u, { headers: { "HX-Request": "true" }, credentials: "same-origin" }).then(function (r) {
      var p = document.getElementById(s.id);
      if (r.status === 503 && r.headers.get("Retry-After")) {
        if (p) wait(p, null, { getResponseHeader: function (n) { return r.headers.get(n); } });
        return false;
      }
      if (!r.ok) return true;
      return r.text().then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        [s.id + "-plot", s.id + "-state"].forEach(function (id) {
          var n = doc.getElementById(id), o = document.getElementById(id);
          if (!n || !o) return;
          n = document.importNode(n, true);
          o.replaceWith(n);
          window.htmx.process(n);
        });
        var self = r.headers.get("HX-Push-Url");
        if (self) window.history.replaceState(window.history.state, "", self);
        return true;
      });
    });
  }

  function slidePump() {
    var s = slide, p = s && document.getElementById(s.id);
    if (!p || !p.contains(s.form)) { slide = null; return; }
    if (s.inflight || s.timer) return;
    var gap = Math.max(retryAt, s.last + slideGap) - Date.now();
    if (gap > 0 && (s.want !== s.shown || Date.now() < retryAt)) {
      s.timer = window.setTimeout(function () { s.timer = null; slidePump(); }, gap + 5);
      return;
    }
    if (s.want !== s.shown) {
      var u = s.want, push = !s.pushed;
      s.inflight = true;
      s.last = Date.now();
      var shown = function (ok) {
        s.inflight = false;
        if (ok && Date.now() >= retryAt) { s.shown = u; if (push) s.pushed = true; }
        slidePump();
      };
      var failed = function () { s.inflight = false; slide = null; };
      if (push || !window.fetch) {
        window.htmx.ajax("GET", u, {
          target: "#" + s.id + "-plot", select: "#" + s.id + "-plot", swap: "outerHTML",
          selectOOB: "#" + s.id + "-state"
        }).then(function () { shown(true); }, failed);
      } else {
        preview(s, u).then(shown, failed);
      }
      return;
    }
    if (s.released) {
      slide = null;
      busy = true;
      go(s.shown, s.id, s.pushed).then(done, done);
    }
  }

  function slid(t, released) {
    if (!window.htmx || !t.matches || !t.matches("form[hx-get] input.log-slider")) return false;
    var p = t.closest(".demo-panel");
    if (!p || !p.id) return false;
    if (timer) setPlaying(false); // a step would swap the slider out of the hand
    lastID = p.id;
    if (!slide || slide.id !== p.id || slide.form !== t.form) {
      slide = { id: p.id, form: t.form, want: null, shown: null, pushed: false, last: 0 };
    }
    slide.want = slideURL(t.form);
    if (released) slide.released = true;
    slidePump();
    return true;
  }
  document.addEventListener("input", function (e) { slid(e.target, false); });
  document.addEventListener("change", function (e) {
    if (slid(e.target, true)) e.stopPropagation();
  }, true);

  document.addEventListener("change", function (e) {
    if (!e.target.matches || !e.target.matches('select[data-role="speed"]')) return;
    var p = e.target.closest(".demo-panel");
    if (p) speeds[p.id] = parseInt(e.target.value, 10);
    if (timer && p && playingID === p.id) { setPlaying(false); setPlaying(true, p); }
  });

  // plotClick maps a click to data coordinates using the frame the server
  // measured, then removes the point under the pointer or adds a new one.
  function plotClick(e, svg) {
    var fig = svg.closest("figure.plot");
    var mode = fig.dataset.click;
    var info = JSON.parse(fig.dataset.frame || "null");
    if (!mode || !info || !info.frame) return;
    var f = info.frame;
    var pt = svg.createSVGPoint();
    pt.x = e.clientX; pt.y = e.clientY;
    var m = svg.getScreenCTM();
    if (!m) return;
    var u = pt.matrixTransform(m.inverse());
    var v = f.View;
    var px = (u.x - f.Left) / f.Width, py = (u.y - f.Top) / f.Height;
    if (px < 0 || px > 1 || py < 0 || py > 1) return;
    var x1 = v.XMin + px * (v.XMax - v.XMin);
    var x2 = v.YMax - py * (v.YMax - v.YMin);
    var perUnit = f.Width / (v.XMax - v.XMin) * m.a; // screen px per data unit
    var best = -1, bestD = 10 / perUnit; // 10 screen pixels
    (info.points || []).forEach(function (p, i) {
      var d = Math.hypot(p[0] - x1, p[1] - x2);
      if (d < bestD) { bestD = d; best = i; }
    });
    var p = fig.closest(".demo-panel");
    var q = new URL(p.dataset.self, window.location.href);
    if (mode === "start") {
      // A demo without points: the click sets the start point.
      q.searchParams.set("op", "add");
      q.searchParams.set("px", x1.toFixed(3));
      q.searchParams.set("py", x2.toFixed(3));
    } else if (best >= 0) {
      // (A graph's points are hit where they are drawn, at (x, y).)
      q.searchParams.set("op", "remove");
      q.searchParams.set("pi", String(best));
    } else {
      var cls = p.querySelector('input[data-role="click-class"]:checked');
      q.searchParams.set("op", "add");
      q.searchParams.set("px", x1.toFixed(3));
      q.searchParams.set("py", x2.toFixed(3));
      q.searchParams.set("pl", cls ? cls.value : "1");
      if (mode === "graph") {
        // An observation (x, y): the plot's vertical axis is y.
        q.searchParams.delete("py");
        q.searchParams.set("pl", x2.toFixed(3));
      }
    }
    if (busy) return;
    busy = true;
    go(q.pathname + q.search, p.id).then(done, done);
  }

  // go loads a state into the demo panel; the server's HX-Push-Url header
  // puts its permalink in the address bar.
  function go(href, id, replace) {
    if (window.htmx) {
      return window.htmx.ajax("GET", href, { target: "#" + id, swap: "outerHTML", replace: !!replace });
    }
    window.location.href = href;
    return Promise.resolve();
  }

  // ---- Swaps: the demo stays where it was ---------------------------------
  //
  // htmx puts the new panel in before it takes the old one out. The
  // browser's scroll anchoring may hold on to something in the old panel
  // (Chromium prefers the focused element: the Step link just clicked) and
  // scroll the page by the panel's height. The stylesheet keeps panels out
  // of anchoring; here the demo's top is put back where it was, and focus
  // goes to the same control in the new panel, without scrolling.
  var kept = null;

  function describe(el, panel) {
    if (!el || el === document.body || !panel.contains(el)) return null;
    if (el.dataset && el.dataset.action) return { sel: '[data-action="' + el.dataset.action + '"]' };
    if (el.name) {
      var form = el.form, cls = form ? form.className.split(/\s+/).filter(function (c) { return /-form$/.test(c); })[0] : "";
      return { sel: (cls ? "form." + cls + " " : "") + '[name="' + el.name + '"]' + (el.type === "radio" ? '[value="' + el.value + '"]' : ""), released: el === released };
    }
    return null;
  }

  function restore(final) {
    if (!kept) return;
    var p = document.getElementById(kept.id);
    if (p) {
      var dy = sectionOf(p).getBoundingClientRect().top - kept.top;
      if (Math.abs(dy) >= 1) window.scrollBy(0, dy);
      if (kept.focus && !p.contains(document.activeElement)) {
        var el = p.querySelector(kept.focus.sel);
        if (el && el.focus && !el.disabled && el.tagName !== "SPAN") {
          el.focus({ preventScroll: true });
          if (kept.focus.released) released = el;
        }
      }
    }
    if (final) kept = null;
  }

  document.addEventListener("htmx:beforeSwap", function (e) {
    var d = e.detail, tgt = d.target;
    var panel = tgt && tgt.closest ? tgt.closest(".demo-panel") : null;
    if (!panel) return;
    if (d.xhr && d.xhr.status === 503 && d.xhr.getResponseHeader("Retry-After")) {
      // Busy: wait as the server asks, keeping the state shown.
      d.shouldSwap = false;
      d.isError = false;
      wait(panel, d.requestConfig && d.requestConfig.elt, d.xhr);
      return;
    }
    if (tgt !== panel) return; // the scrubber's preview of a step
    if (d.xhr && d.xhr.status >= 400) {
      // A refused value or step: say why, and keep the state shown.
      d.shouldSwap = false;
      d.isError = false;
      var failed = d.xhr.status >= 500 ? "The server failed on this step (the demo keeps its state): " : "";
      refuse(tgt, d.requestConfig && d.requestConfig.elt, failed + messageOf(d.xhr, tgt), !failed);
      return;
    }
    if (!d.shouldSwap) return;
    kept = { id: tgt.id, top: sectionOf(tgt).getBoundingClientRect().top, focus: describe(document.activeElement, tgt) };
  });
  document.addEventListener("htmx:afterSwap", function () {
    restore(false);
    showSpeeds();
    if (timer) markPlay(document.getElementById(playingID));
  });
  document.addEventListener("htmx:afterSettle", function () { restore(true); markSoon(); });
  // History is kept in the URL (the layout's htmx-config): Back loads the
  // URL's page. Snapshots an older page left in this tab are dropped, so
  // none can be put back in its place.
  try { window.sessionStorage.removeItem("htmx-history-cache"); } catch (err) { /* private mode */ }
  // Back and forward put an earlier page back: find the current demo anew.
  document.addEventListener("htmx:historyRestore", function () { shownID = null; markSoon(); });
  document.addEventListener("htmx:sendError", function (e) {
    var d = e.detail, tgt = d.target || (d.requestConfig && d.requestConfig.target);
    if (tgt && tgt.classList && tgt.classList.contains("demo-panel")) {
      refuse(tgt, d.requestConfig && d.requestConfig.elt, "The server could not be reached; the demo shows the last state it sent.", false);
    }
  });

  // ---- Slides: the presenter view's keys -------------------------------
  //
  // f full screen, +/− speed, n/p the next/previous demo (or deck entry:
  // the page's a[rel=next] and a[rel=prev]), h the history chart, b a
  // blank screen, c clean mode (no forms), ? the keys' help dialog. The
  // choices that are the room's, not the state's (clean, history), last
  // while the tab is open, across demos.

  var speeds = {}; // panel id → the speed +/− or the select chose, in ms
  var speedSteps = [1000, 500, 250, 100, 40];

  // pageKey acts on key k if it is one of the page's keys (not a step's).
  function pageKey(k) {
    switch (k) {
      case "f": case "F": fullScreen(); return true;
      case "+": case "=": faster(1); return true;
      case "-": case "_": case "\u2212": faster(-1); return true;
      case "n": case "N": follow("next"); return true;
      case "p": case "P": follow("prev"); return true;
      case "h": case "H": toggleHistory(); return true;
      case "b": case "B": document.body.classList.add("blank"); return true;
      case "c": case "C": setRoom("clean", !document.body.classList.contains("clean")); return true;
      case "?": toggleHelp(); return true;
    }
    return false;
  }

  function fullScreen() {
    var d = document;
    if (d.fullscreenElement) { if (d.exitFullscreen) d.exitFullscreen(); return; }
    var el = d.documentElement;
    if (el.requestFullscreen) el.requestFullscreen().catch(function () { /* refused: stay as is */ });
  }

  // faster moves the current demo's speed by dir stops (1 faster, −1
  // slower); a playing demo plays on at the new speed.
  function faster(dir) {
    var p = current();
    if (!p) return;
    var i = speedSteps.indexOf(speed(p));
    if (i < 0) i = 1;
    i = Math.max(0, Math.min(speedSteps.length - 1, i + dir));
    speeds[p.id] = speedSteps[i];
    showSpeeds();
    if (timer && playingID === p.id) { setPlaying(false); setPlaying(true, p); }
  }

  // showSpeeds puts the speeds chosen into the selects a swap brought
  // (which show the URL's).
  function showSpeeds() {
    Object.keys(speeds).forEach(function (id) {
      var sel = document.querySelector("#" + id + ' select[data-role="speed"]');
      if (sel) sel.value = String(speeds[id]);
    });
  }

  // follow goes to the page's rel link ("next" or "prev"), if it has one:
  // the next demo in the presenter view, the next entry in a deck. From a
  // screen that shows the plot smaller than drawn, a link to a presenter
  // view asks for it at the size shown (see fitPlots).
  function follow(rel) {
    var a = document.querySelector('a[data-nav="' + rel + '"]');
    if (!a) return false;
    setPlaying(false);
    var u = new URL(a.getAttribute("href"), window.location.href);
    var fig = document.querySelector("body.present figure.plot");
    var w = fig ? plotSize(fig) : drawnPx;
    if (w < drawnPx - 10 && /^\/present\//.test(u.pathname) && !u.searchParams.has("w")) {
      u.searchParams.set("w", w);
      u.searchParams.set("h", w);
    }
    window.location.href = u.href;
    return true;
  }

  function toggleHelp() {
    var d = document.getElementById("keys-help");
    if (!d || !d.showModal) return;
    if (d.open) d.close(); else d.showModal();
  }
  document.addEventListener("click", function (e) {
    if (e.target.closest && e.target.closest('[data-action="help"]')) toggleHelp();
  });

  // The room's choices: classes on the body, kept in sessionStorage.
  function setRoom(name, on) {
    document.body.classList.toggle(name, on);
    try { window.sessionStorage.setItem("margin-" + name, on ? "1" : ""); } catch (err) { /* private mode */ }
  }
  function roomFromStorage() {
    ["clean", "history-top", "no-history"].forEach(function (name) {
      var on = false;
      try { on = window.sessionStorage.getItem("margin-" + name) === "1"; } catch (err) { /* private mode */ }
      if (on) document.body.classList.add(name);
    });
  }
  document.addEventListener("DOMContentLoaded", roomFromStorage);

  // toggleHistory shows the history chart right under the controls if it
  // is hidden or not wholly on the screen, and hides it if it is.
  function toggleHistory() {
    var h = document.querySelector("figure.history");
    if (!h) return;
    var b = document.body.classList, r = h.getBoundingClientRect();
    var whole = r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
    var show = b.contains("no-history") || (!b.contains("history-top") && !whole);
    setRoom("history-top", show);
    setRoom("no-history", !show);
  }

  // ---- The plot at the size it shows ------------------------------------
  //
  // The server draws the plot at the state's size (w, h; 600 px unless the
  // URL says). Shown larger, as on a projector, it scales up with the
  // screen, type and lines with it, as the back of a hall needs. Shown
  // smaller (a small window), its type would shrink: then, after a load, a
  // resize or a change to full screen, the presenter view asks for the
  // panel at the size shown, replacing the address (it is the same state),
  // and for 600 px again once there is room.
  var drawnPx = 600; // the kit's default plot size

  function plotSize(fig) {
    return Math.max(200, Math.min(2000, Math.round(fig.getBoundingClientRect().width / 10) * 10));
  }

  function fitPlots() {
    if (!document.body.classList.contains("present")) return;
    if (busy) { fitSoon(); return; } // after the step under way
    document.querySelectorAll(".demo-panel").forEach(function (p) {
      var fig = p.querySelector("figure.plot");
      if (!fig || !p.dataset.self) return;
      var u = new URL(p.dataset.self, window.location.href);
      var w = Number(u.searchParams.get("w") || 600), h = Number(u.searchParams.get("h") || 600);
      var shown = plotSize(fig), want = w;
      if (shown < w - 10) want = shown;
      else if (w < drawnPx && shown > w + 10) want = Math.min(shown, drawnPx);
      if (want === w) return;
      u.searchParams.set("w", want);
      u.searchParams.set("h", Math.max(200, Math.min(2000, Math.round(want * h / w))));
      busy = true;
      go(u.pathname + u.search, p.id, true).then(done, done);
    });
  }
  var fitTimer = null;
  function fitSoon() {
    window.clearTimeout(fitTimer);
    fitTimer = window.setTimeout(fitPlots, 250);
  }
  window.addEventListener("load", fitPlots);
  window.addEventListener("resize", fitSoon);
  document.addEventListener("fullscreenchange", fitSoon);

  // htmx follows the server's HX-Push-Url; a request made to replace the
  // address (a resize, the scrubber while it moves) replaces it instead.
  document.addEventListener("htmx:beforeHistoryUpdate", function (e) {
    var d = e.detail;
    if (d.etc && d.etc.replace && d.history) d.history.type = "replace";
  });

  // ---- The timeline ------------------------------------------------------
  //
  // Dragging the scrubber shows each step as it comes (the plot and what
  // is beside it, not the controls or the slider itself), one at a time,
  // the newest position winning; the first moves the address on (a history
  // entry), the rest replace it. On release the whole panel comes.
  var scrub = null; // {id, want, shown, pushed, inflight, released}

  function scrubURL(p, k) {
    var u = new URL(p.dataset.self, window.location.href);
    u.searchParams.set("step", String(k));
    return u.pathname + u.search;
  }

  function pump() {
    var s = scrub, p = s && document.getElementById(s.id);
    if (!p) { scrub = null; return; }
    if (s.inflight) return;
    if (Date.now() < retryAt) { window.setTimeout(pump, retryAt - Date.now() + 10); return; }
    if (s.want !== s.shown) {
      var k = s.want;
      s.inflight = true;
      var push = !s.pushed;
      s.pushed = true;
      window.htmx.ajax("GET", scrubURL(p, k), {
        target: "#" + s.id + "-plot", select: "#" + s.id + "-plot", swap: "outerHTML",
        selectOOB: "#" + s.id + "-state", replace: !push
      }).then(function () {
        s.inflight = false;
        if (Date.now() >= retryAt) s.shown = k;
        pump();
      }, function () { s.inflight = false; scrub = null; });
      return;
    }
    if (s.released) {
      scrub = null;
      if (!s.pushed) return;
      busy = true;
      go(scrubURL(p, s.shown), s.id, true).then(done, done);
    }
  }

  function scrubbed(e, released) {
    var t = e.target;
    if (!t.matches || !t.matches('form[data-role="scrubber"] input[type="range"]') || !window.htmx) return false;
    var p = t.closest(".demo-panel");
    if (!p) return false;
    setPlaying(false);
    lastID = p.id;
    var k = parseInt(t.value, 10);
    var out = t.form.querySelector('[data-role="scrub-step"]');
    if (out) out.textContent = String(k);
    if (!scrub || scrub.id !== p.id) scrub = { id: p.id, want: k, shown: Number(p.dataset.step), pushed: false };
    scrub.want = k;
    if (released) scrub.released = true;
    pump();
    return true;
  }
  document.addEventListener("input", function (e) { scrubbed(e, false); });
  document.addEventListener("change", function (e) { scrubbed(e, true); });
  // The scrubber's form submits only without JavaScript.
  document.addEventListener("submit", function (e) {
    if (e.target.matches && e.target.matches('form[data-role="scrubber"]') && window.htmx) e.preventDefault();
  });

  // ---- Busy: a 503's Retry-After ----------------------------------------
  //
  // A server short of room answers 503 with Retry-After. The demo keeps
  // its state and says so; playing pauses its steps until then, the
  // scrubber asks again then, and a slider's form is sent again then.
  var retryAt = 0, retryForm = null;

  function wait(panel, elt, xhr) {
    var secs = Math.min(30, Math.max(1, parseInt(xhr.getResponseHeader("Retry-After"), 10) || 1));
    retryAt = Math.max(retryAt, Date.now() + secs * 1000);
    var box = panel.querySelector('[data-role="demo-error"]');
    if (box) box.textContent = "The server is busy: waiting " + secs + " s as it asked; the demo keeps its state.";
    var form = elt && elt.closest ? elt.closest("form") : null;
    if (form && panel.contains(form) && !form.matches('[data-role="scrubber"]') && retryForm !== form) {
      retryForm = form;
      window.setTimeout(function () {
        retryForm = null;
        if (document.body.contains(form) && window.htmx) window.htmx.trigger(form, "submit");
      }, secs * 1000);
    }
  }

  // ---- Refusals -----------------------------------------------------------

  // messageOf reads what the server said: the error page's messages (one
  // per bad key, "eta: …"), each in the reader's symbol ("η: …") where
  // panel has a control for the key, else its status.
  function messageOf(xhr, panel) {
    var lines = [];
    try {
      var doc = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
      doc.querySelectorAll('[data-testid="error-message"]').forEach(function (m) {
        var s = m.textContent.trim();
        if (s) lines.push(inSymbols(s, panel));
      });
    } catch (err) { /* not HTML: fall back on the status */ }
    if (!lines.length) lines.push((xhr.status + " " + (xhr.statusText || "error")).trim());
    return lines.join(" · ");
  }

  // inSymbols puts the label of key's control (η) for the URL key (eta)
  // a server message starts with ("eta: …").
  function inSymbols(line, panel) {
    var m = /^([A-Za-z][\w.]*): ([\s\S]*)$/.exec(line);
    if (!m || !panel) return line;
    var c = panel.querySelector('[name="' + m[1] + '"][data-label]');
    return c ? c.dataset.label + ": " + m[2] : line;
  }

  // invalidText says why the browser refused control el (validity is its
  // ValidityState) as the server would, in the control's symbol and the
  // range the server allows: 'η: "500" is not a number greater than 0 up
  // to 100'. A control without those falls back on the browser's own
  // message.
  function invalidText(el, validity, message) {
    var sym = (el.dataset && el.dataset.label) || el.name, range = el.dataset && el.dataset.range;
    var v = validity || el.validity || {};
    if (!range) return sym + ": " + (message || el.validationMessage);
    if (v.badInput) return sym + ": what was typed is not a number; give " + range;
    if (v.valueMissing) return sym + ": give " + range;
    if (v.stepMismatch && !v.rangeOverflow && !v.rangeUnderflow && el.step !== "1") {
      return sym + ": " + JSON.stringify(el.value) + " is not a multiple of " + el.step + ", the form's step; " + sym + " is " + range;
    }
    return sym + ": " + JSON.stringify(el.value) + " is not " + range;
  }

  // The browser's own check of a parameter form (htmx runs it before a
  // change or Enter sends the form, without the browser's bubble) refused
  // a value: say so beside the form, as a refusal by the server is.
  document.addEventListener("htmx:validation:halted", function (e) {
    var d = e.detail || {}, errs = d.errors || [];
    var form = d.elt || e.target, panel = form && form.closest ? form.closest(".demo-panel") : null;
    if (!panel || !errs.length) return;
    var msgs = errs.map(function (x) { return invalidText(x.elt, x.validity, x.message); });
    refuse(panel, errs[0].elt, msgs.join(" · "), true);
  });

  // refuse shows msg beside what asked: the form whose value was refused
  // (which goes back to the values of the state shown, so the form and the
  // plot agree, unless it keeps what was typed, as the CSV form keeps the
  // pasted points: data-keep), else under the demo's step controls. A
  // playing demo stops.
  // refused says the server turned the request down (a 4xx), rather than
  // failed or could not be reached.
  function refuse(panel, elt, msg, refused) {
    if (timer && playingID === panel.id) setPlaying(false);
    var form = elt && elt.closest ? elt.closest("form") : null;
    var box = form && panel.contains(form) && form.querySelector('[data-role="form-error"]');
    if (box && !form.hasAttribute("data-keep")) form.reset();
    if (!box) box = panel.querySelector('[data-role="demo-error"]');
    if (!box) return;
    panel.querySelectorAll('[data-role="form-error"], [data-role="demo-error"]').forEach(function (b) {
      if (b !== box) b.textContent = "";
    });
    box.textContent = (!refused ? "" : form ? "Not applied: " : "Refused: ") + msg;
  }
})();
