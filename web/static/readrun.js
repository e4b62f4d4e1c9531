// Margin's read-and-run script (issue 20 §5). A "try this" link in a
// lesson's prose, to a state of one of the page's own demos, loads that
// state into the demo where it is: an htmx swap of the demo's panel, its
// permalink pushed (the server's HX-Push-Url), the sentence the reader
// clicked left where it was. Without this script, or with a modifier key
// (a new tab), the link is a link: the page loads at the demo. Links to
// other lessons, and to sections, are links too.
(function () {
  "use strict";

  // target returns the panel a click on link a loads a state into, or
  // null when the click is the browser's to follow.
  function target(e, a) {
    if (e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return null;
    if (!window.htmx || a.target || a.hasAttribute("download")) return null;
    var u = new URL(a.href, window.location.href);
    if (u.origin !== window.location.origin || u.pathname !== window.location.pathname) return null;
    if (!/^#demo-/.test(u.hash)) return null;
    var section = document.getElementById(decodeURIComponent(u.hash.slice(1)));
    // The state must be that demo's: its demo key names it, or, without
    // one, it is the page's first demo (the server's rule).
    var first = document.querySelector("section.demo");
    var id = u.searchParams.get("demo");
    if (!section || !first || section.id !== (id ? "demo-" + id : first.id)) return null;
    var panel = section.querySelector(".demo-panel");
    return panel && panel.id ? { panel: panel, section: section, path: u.pathname + u.search } : null;
  }

  // shown reports whether some of el is in the window.
  function shown(el) {
    var r = el.getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight && r.height > 0;
  }

  // A load under way: the link clicked and where it was in the window.
  var pending = null;

  document.addEventListener("click", function (e) {
    var a = e.target.closest ? e.target.closest(".prose a[href]") : null;
    var t = a && target(e, a);
    if (!t) return;
    e.preventDefault();
    var plot = t.panel.querySelector("figure.plot") || t.panel;
    pending = { id: t.panel.id, link: a, top: a.getBoundingClientRect().top, demoShown: shown(plot) };
    // The request has no fragment: htmx would scroll to it.
    window.htmx.ajax("GET", t.path, { target: "#" + t.panel.id, swap: "outerHTML" });
  });

  // After the swap has settled (and app.js has put the demo back where it
  // was), the link goes back to where it was: the reader does not move. A
  // demo that was nowhere on the screen (a narrow one, where the demo is
  // not beside the prose) is brought into view instead, as the link would
  // have done.
  document.addEventListener("htmx:afterSettle", function (e) {
    var p = pending, tgt = e.detail && e.detail.target;
    if (!p || !tgt || tgt.id !== p.id) return;
    pending = null;
    var panel = document.getElementById(p.id);
    if (!panel) return;
    if (!p.demoShown) {
      (panel.closest(".demo") || panel).scrollIntoView({ block: "start" });
      return;
    }
    if (!document.body.contains(p.link)) return;
    var dy = p.link.getBoundingClientRect().top - p.top;
    if (Math.abs(dy) >= 1) window.scrollBy(0, dy);
  });
  // A refused state or a failed request leaves the panel as it was
  // (app.js says why, and cancels the swap of a refusal).
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (pending && !e.detail.shouldSwap) pending = null;
  });
  document.addEventListener("htmx:responseError", function () { pending = null; });
  document.addEventListener("htmx:sendError", function () { pending = null; });
})();
