// Quire app: the menu on narrow screens (web.ThemeScript wires the theme
// button). Pages work without it; forms are plain forms.
(function () {
  "use strict";
  function $(sel) { return document.querySelector(sel); }

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

  initMenu();
})();
