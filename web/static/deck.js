// Margin's lecture deck: /deck?d=<presenter path>&d=…&at=<k>. The deck
// lives in its URL. n and p (app.js) follow the rel=next and rel=prev
// links, a history entry each; stepping inside an entry swaps the panel
// from /present/, and this script writes the new state into the entry
// with replaceState instead of the presenter URL htmx would push, so
// stepping does not fill the back button, and keeps every deck link (the
// entries, next, previous, "add this state") on the state shown.
(function () {
  "use strict";
  if (!document.body || !document.body.classList.contains("deck")) {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }

  function start() {
    if (!document.body.classList.contains("deck")) return;
    document.addEventListener("htmx:beforeHistoryUpdate", onHistory);
    window.addEventListener("popstate", function () { window.setTimeout(relink, 0); });
    document.addEventListener("htmx:historyRestore", relink);
    relink();
  }

  // esc escapes a presenter path as Go's url.QueryEscape does, so the
  // deck URL stays the server's canonical one.
  function esc(s) {
    return encodeURIComponent(s).replace(/[!'()*]/g, function (c) {
      return "%" + c.charCodeAt(0).toString(16).toUpperCase();
    }).replace(/%20/g, "+");
  }

  function deckURL(entries, at) {
    return "/deck?" + entries.map(function (e) { return "d=" + esc(e) + "&"; }).join("") + "at=" + at;
  }

  function here() {
    var q = new URLSearchParams(window.location.search);
    return { entries: q.getAll("d"), at: parseInt(q.get("at") || "1", 10) };
  }

  // onHistory turns htmx's push of a presenter permalink into a
  // replaceState of the deck with that entry changed.
  function onHistory(e) {
    var h = e.detail && e.detail.history;
    if (!h || !h.path || h.path.indexOf("/present/") !== 0) return;
    var k = here();
    if (!(k.at >= 1 && k.at <= k.entries.length)) return;
    k.entries[k.at - 1] = h.path.split("#")[0];
    h.type = "replace";
    h.path = deckURL(k.entries, k.at);
    window.setTimeout(relink, 0);
  }

  // relink points the deck's links at the URL's entries.
  function relink() {
    var k = here();
    if (!k.entries.length) return;
    document.querySelectorAll("a[data-deck-at]").forEach(function (a) {
      a.setAttribute("href", deckURL(k.entries, parseInt(a.dataset.deckAt, 10)));
    });
    document.querySelectorAll("a[data-deck-add]").forEach(function (a) {
      var more = k.entries.concat([k.entries[k.at - 1]]);
      a.setAttribute("href", deckURL(more, more.length));
    });
  }
})();
