// Margin's demo script. Everything works without it (links and forms);
// with it: keyboard stepping, play/pause, click-to-edit points, copy link.
// Steps themselves are server-rendered and swapped in by htmx.
(function () {
  "use strict";
  var timer = null;

  // A page may hold several demos; keys and play act on the one last
  // used (clicked or focused), at first the first one.
  var currentID = null;
  function panel() {
    return (currentID && document.getElementById(currentID)) || document.querySelector(".demo-panel");
  }
  function use(el) {
    var p = el && el.closest ? el.closest(".demo-panel") : null;
    if (p && p.id !== currentID) {
      if (timer) setPlaying(false);
      currentID = p.id;
    }
  }
  document.addEventListener("focusin", function (e) { use(e.target); });

  // act follows a control's link. Presses that arrive while a step is
  // loading wait their turn (up to a few), so fast key repeats never race
  // the swap or fall back to a full page load.
  var busy = false, queued = [];
  function act(name, noQueue) {
    if (busy) {
      if (!noQueue && queued.length < 4) queued.push(name);
      return true;
    }
    var p = panel();
    var a = p && p.querySelector('a[data-action="' + name + '"]');
    if (!a) return false;
    busy = true;
    go(a.getAttribute("href"), p.id).then(done, done);
    return true;
  }

  function done() {
    busy = false;
    if (queued.length) act(queued.shift());
  }

  function speed() {
    var p = panel();
    var sel = p && p.querySelector('select[data-role="speed"]');
    return sel ? parseInt(sel.value, 10) : 500;
  }

  function setPlaying(on) {
    if (on && !timer) {
      // A tick that finds a step still loading skips its turn, so a slow
      // server slows playing down instead of piling up steps.
      timer = window.setInterval(function () {
        if (!act("next", true)) setPlaying(false);
      }, speed());
    } else if (!on && timer) {
      window.clearInterval(timer);
      timer = null;
      queued = [];
    }
    markPlay();
  }

  function markPlay() {
    var b = panel() && panel().querySelector('[data-action="play"]');
    if (!b) return;
    b.setAttribute("aria-pressed", timer ? "true" : "false");
    b.textContent = timer ? "⏸ Pause" : "▶ Play";
  }

  function typing(e) {
    var t = e.target;
    return t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
  }

  document.addEventListener("keydown", function (e) {
    if (!panel() || typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "ArrowRight") { e.preventDefault(); setPlaying(false); act("next"); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); setPlaying(false); act("prev"); }
    else if (e.key === " ") { e.preventDefault(); setPlaying(!timer); }
    else if (e.key === "r" || e.key === "R") { setPlaying(false); act("reset"); }
  });

  document.addEventListener("click", function (e) {
    use(e.target);
    var t = e.target.closest ? e.target.closest("[data-action]") : null;
    if (t && t.dataset.action === "play") { setPlaying(!timer); return; }
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

  document.addEventListener("change", function (e) {
    if (e.target.matches && e.target.matches('select[data-role="speed"]') && timer) {
      setPlaying(false); setPlaying(true);
    }
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
    var p = panel();
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
    busy = true;
    go(q.pathname + q.search, p.id).then(done, done);
  }

  // go loads a state into the demo panel; the server's HX-Push-Url header
  // puts its permalink in the address bar.
  function go(href, id) {
    if (window.htmx) {
      return window.htmx.ajax("GET", href, { target: "#" + id, swap: "outerHTML" });
    }
    window.location.href = href;
    return Promise.resolve();
  }

  document.addEventListener("htmx:afterSwap", markPlay);
})();
