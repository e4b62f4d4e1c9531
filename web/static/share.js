// Margin's share script: the "copy for slides" box (its copy buttons, and
// root-relative URLs completed with the page's origin when the server was
// not told its public URL), and the embed view's links that leave it.
(function () {
  "use strict";

  // complete writes the page's origin into the slide texts of a box whose
  // URLs are root-relative: a URL that starts the text, or follows src=".
  function complete(root) {
    var o = window.location.origin;
    (root || document).querySelectorAll('.slides-list[data-relative] [data-role="slide-text"]').forEach(function (el) {
      el.value = el.value.replace(/^\//, o + "/").replace(/src="\//g, 'src="' + o + "/");
    });
  }
  // local shows the presenter view's note that phones cannot open a
  // loopback address (the server, not told its public URL, left it hidden:
  // the page must not depend on the Host it was asked for).
  function local() {
    var h = window.location.hostname;
    if (!(h === "localhost" || /\.localhost$/.test(h) || /^127\./.test(h) || h === "[::1]")) return;
    document.querySelectorAll('[data-role="qr-local"]').forEach(function (p) { p.hidden = false; });
  }
  document.addEventListener("DOMContentLoaded", function () { complete(); local(); });
  document.addEventListener("htmx:afterSwap", function (e) { complete(e.detail && e.detail.target && e.detail.target.parentNode); local(); });

  document.addEventListener("click", function (e) {
    var b = e.target.closest ? e.target.closest('[data-action="copy-text"]') : null;
    if (b) {
      var box = b.parentNode.querySelector('[data-role="slide-text"]');
      if (!box) return;
      box.select();
      if (navigator.clipboard) navigator.clipboard.writeText(box.value).catch(function () {});
      var label = b.textContent;
      b.textContent = "copied";
      window.setTimeout(function () { b.textContent = label; }, 1500);
      return;
    }
    // The presenter view's QR card floats over the demo; a click on it
    // puts it away.
    var card = e.target.closest ? e.target.closest('[data-role="qr-card"]') : null;
    if (card && card.closest("details")) {
      card.closest("details").open = false;
      return;
    }
    // In the embed view only /embed/ pages may show in the iframe (every
    // other page refuses to be framed): any other link opens a new tab.
    var a = document.body.classList.contains("embed") && e.target.closest ? e.target.closest("a[href]") : null;
    if (a && !a.hasAttribute("download") && !a.hasAttribute("hx-get") &&
        (a.origin !== window.location.origin || a.pathname.indexOf("/embed/") !== 0)) {
      a.target = "_blank";
      a.rel = "noopener";
    }
  }, true);

  // In the embed view a step replaces the iframe's address instead of
  // adding to the history: the host page's back button (which walks the
  // iframe's entries too) should leave the slide, not step back.
  document.addEventListener("htmx:beforeHistoryUpdate", function (e) {
    var h = e.detail && e.detail.history;
    if (h && document.body.classList.contains("embed")) h.type = "replace";
  });

  // q shows or hides the presenter view's QR code (not while typing in a
  // box, and never with a modifier).
  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || (e.key !== "q" && e.key !== "Q")) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var box = document.body.classList.contains("present") && document.querySelector('details[data-testid="qr-box"]');
    if (!box) return;
    e.preventDefault();
    box.open = !box.open;
  });
})();
