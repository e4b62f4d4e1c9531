// Predict, then reveal (issue 20 §1). The question is a plain GET form and
// its reveal a plain link, so both work without this script; with it, the
// keys that would step (→, and PageDown in the presenter view) reveal
// the next step instead of passing an unanswered question silently, and
// in the presenter view Enter reveals it too, unscored, for a hall that
// answered aloud. It listens before app.js (capture) and takes only the
// keys it acts on.
(function () {
  "use strict";

  // panel is the demo the keys drive: the current one (app.js marks its
  // section), else the only one on the page.
  function panel() {
    var cur = document.querySelector(".demo.current .demo-panel");
    if (cur) return cur;
    var all = document.querySelectorAll(".demo-panel");
    return all.length === 1 ? all[0] : null;
  }

  function slides() {
    return document.body.matches(".present, .deck, .embed, [data-slides]");
  }

  // typing reports whether t takes keys itself: a text box, or a control
  // whose own Enter means something (a choice, a link).
  function typing(t, k) {
    if (!t || !t.tagName) return false;
    if (t.isContentEditable || /^(TEXTAREA|SELECT)$/.test(t.tagName)) return true;
    if (t.tagName === "INPUT" && !/^(button|submit|reset|checkbox|radio|range|hidden)$/i.test(t.type)) return true;
    return k === "Enter" && /^(A|BUTTON|SUMMARY|INPUT)$/.test(t.tagName);
  }

  window.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    var k = e.key, t = e.target;
    if (k !== "Enter" && k !== "ArrowRight" && k !== "PageDown") return;
    if (document.body.classList.contains("blank") || (t && t.closest && t.closest("dialog[open]"))) return;
    if (typing(t, k)) return;
    if (k === "Enter" && !document.body.classList.contains("present")) return;
    if (k === "PageDown" && !slides()) return;
    var p = panel();
    var show = p && p.querySelector('[data-predict="question"] a[data-action="reveal"]');
    if (!show) return;
    e.preventDefault();
    e.stopPropagation();
    show.click();
  }, true);
})();
