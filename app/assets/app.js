// Quire app: theme switch and the menu on narrow screens. Pages work
// without it; forms are plain forms.
(function () {
  "use strict";
  var doc = document.documentElement;
  function $(sel) { return document.querySelector(sel); }

  // Theme: the head script already chose one; the button flips and keeps
  // it, under the key the published sites use too.
  function initTheme() {
    var btn = $("#theme-toggle");
    if (!btn) return;
    var sync = function () { btn.setAttribute("aria-pressed", String(doc.getAttribute("data-theme") === "dark")); };
    sync();
    btn.addEventListener("click", function () {
      var next = doc.getAttribute("data-theme") === "dark" ? "light" : "dark";
      doc.setAttribute("data-theme", next);
      try { localStorage.setItem("quire-theme", next); } catch (e) { /* private mode */ }
      sync();
    });
  }

  // Menu: the sidebar is a toggled panel on narrow screens.
  function initMenu() {
    var btn = $("#menu-toggle"), side = $("#sidebar");
    if (!btn) return;
    if (!side) { btn.hidden = true; return; }
    btn.addEventListener("click", function () {
      var open = !side.classList.contains("open");
      side.classList.toggle("open", open);
      document.body.classList.toggle("menu-open", open);
      btn.setAttribute("aria-expanded", String(open));
      btn.setAttribute("aria-label", open ? "Close the menu" : "Open the menu");
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && side.classList.contains("open")) { btn.click(); btn.focus(); }
    });
  }

  initTheme();
  initMenu();
})();
