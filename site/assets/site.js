// Quire published sites: menu, search as you type, Ask, tabs (web.ThemeScript
// wires the theme button).
(function () {
  "use strict";
  var doc = document.documentElement;
  var root = doc.getAttribute("data-root") || "";

  function $(sel, el) { return (el || document).querySelector(sel); }
  function $$(sel, el) { return Array.prototype.slice.call((el || document).querySelectorAll(sel)); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  // Menu: the sidebar is a toggled panel on narrow screens.
  function initMenu() {
    var btn = $("#menu-toggle"), side = $("#sidebar");
    if (!btn || !side) return;
    var set = function (open) {
      side.classList.toggle("open", open);
      document.body.classList.toggle("menu-open", open);
      btn.setAttribute("aria-expanded", String(open));
      btn.setAttribute("aria-label", open ? "Close the page menu" : "Open the page menu");
    };
    btn.addEventListener("click", function () { set(!side.classList.contains("open")); });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && side.classList.contains("open")) { set(false); btn.focus(); }
    });
  }

  // Section group menus close when another opens or on a click elsewhere.
  function initGroups() {
    var groups = $$("details.section-group");
    groups.forEach(function (g) {
      g.addEventListener("toggle", function () {
        if (!g.open) return;
        var r = g.getBoundingClientRect(), menu = $(".section-group-menu", g);
        if (menu) { menu.style.left = Math.max(8, Math.min(r.left, window.innerWidth - 216)) + "px"; menu.style.top = r.bottom + "px"; }
        groups.forEach(function (o) { if (o !== g) o.open = false; });
      });
    });
    document.addEventListener("click", function (e) {
      groups.forEach(function (g) { if (!g.contains(e.target)) g.open = false; });
    });
    document.addEventListener("keydown", function (e) {
      if (e.key !== "Escape") return;
      groups.forEach(function (g) { if (g.open) { g.open = false; $("summary", g).focus(); } });
    });
  }

  // Search: "/" or Ctrl-K focuses; results come as you type.
  function initSearch() {
    var input = $("#search-input"), box = $("#search-results");
    if (!input || !box) return;
    var timer = 0, seq = 0, ctrl = null;
    var results = function () { return $$("a.search-result", box); };
    var close = function () { box.hidden = true; input.setAttribute("aria-expanded", "false"); };
    var open = function () { box.hidden = false; input.setAttribute("aria-expanded", "true"); };
    var show = function (q, data) {
      box.textContent = "";
      var list = (data && data.results) || [];
      list.forEach(function (r) {
        var a = el("a", "search-result");
        a.href = r.url;
        a.appendChild(el("strong", null, r.title || r.url));
        var where = [r.section, r.space].filter(Boolean).join(" › ");
        if (where) a.appendChild(el("span", "search-where", where));
        if (r.snippet) a.appendChild(el("span", "search-snippet", r.snippet));
        box.appendChild(a);
      });
      if (!list.length) box.appendChild(el("p", "search-empty", "No results for “" + q + "”."));
      var ask = el("button", "search-ask", "Ask: “" + q + "”");
      ask.type = "button";
      ask.addEventListener("click", function () { close(); askQuestion(q); });
      box.appendChild(ask);
      open();
    };
    var run = function () {
      var q = input.value.trim(), mine = ++seq;
      if (ctrl) ctrl.abort();
      if (!q) { box.textContent = ""; close(); return; }
      ctrl = window.AbortController ? new AbortController() : null;
      fetch(root + "/~search?q=" + encodeURIComponent(q), { signal: ctrl && ctrl.signal, headers: { Accept: "application/json" } })
        .then(function (r) { if (!r.ok) throw new Error("search: " + r.status); return r.json(); })
        .then(function (data) { if (mine === seq) show(q, data); })
        .catch(function (err) {
          if (err && err.name === "AbortError") return;
          if (mine !== seq) return;
          box.textContent = "";
          box.appendChild(el("p", "search-empty", "Search is not available right now."));
          open();
        });
    };
    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(run, 150); });
    input.addEventListener("focus", function () { if (box.childNodes.length && input.value.trim()) open(); });
    var move = function (d) {
      var rs = results(); if (!rs.length) return;
      var i = rs.indexOf(document.activeElement) + d;
      if (i < 0) { input.focus(); return; }
      rs[Math.min(i, rs.length - 1)].focus();
    };
    box.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown") { e.preventDefault(); move(1); }
      else if (e.key === "ArrowUp") { e.preventDefault(); move(-1); }
      else if (e.key === "Escape") { close(); input.focus(); }
    });
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown") { e.preventDefault(); move(1); }
      else if (e.key === "Escape") { input.value = ""; box.textContent = ""; close(); input.blur(); }
      else if (e.key === "Enter") {
        e.preventDefault(); var rs = results();
        if (rs.length) location.href = rs[0].href; else if (input.value.trim()) askQuestion(input.value.trim());
      }
    });
    document.addEventListener("click", function (e) { if (!e.target.closest || !e.target.closest(".search")) close(); });
    document.addEventListener("keydown", function (e) {
      var t = e.target, typing = t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
      if ((e.key === "k" || e.key === "K") && (e.ctrlKey || e.metaKey)) { e.preventDefault(); input.focus(); input.select(); }
      else if (e.key === "/" && !typing && !e.altKey && !e.ctrlKey && !e.metaKey) { e.preventDefault(); input.focus(); input.select(); }
    });
  }

  // Ask: answers from the site's content, with its sources.
  var askQuestion = function () {};
  function initAsk() {
    var form = $("#ask-form"), input = $("#ask-input"), out = $("#ask-answer");
    if (!form || !input || !out) return;
    var ctrl = null;
    askQuestion = function (q) {
      input.value = q;
      form.scrollIntoView({ block: "nearest" });
      ask(q);
    };
    var ask = function (q) {
      if (ctrl) ctrl.abort();
      ctrl = window.AbortController ? new AbortController() : null;
      out.textContent = "";
      out.appendChild(el("p", "ask-status", "Thinking…"));
      fetch(root + "/~ask?q=" + encodeURIComponent(q), { signal: ctrl && ctrl.signal, headers: { Accept: "application/json" } })
        .then(function (r) { if (!r.ok) throw new Error("ask: " + r.status); return r.json(); })
        .then(function (data) {
          out.textContent = "";
          var text = el("div", "ask-text");
          if (data.html) text.innerHTML = data.html; // sanitized by the server
          else text.textContent = data.answer || "No answer found in these docs.";
          out.appendChild(text);
          var sources = data.sources || [];
          if (sources.length) {
            out.appendChild(el("p", "ask-status", "Sources"));
            var ul = el("ul");
            sources.forEach(function (s) {
              var li = el("li"), a = el("a", "ask-source", s.title || s.url);
              a.href = s.url; li.appendChild(a); ul.appendChild(li);
            });
            out.appendChild(ul);
          }
        })
        .catch(function (err) {
          if (err && err.name === "AbortError") return;
          out.textContent = "";
          out.appendChild(el("p", "ask-status", "Ask is not available right now."));
        });
    };
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var q = input.value.trim();
      if (q) ask(q);
    });
  }

  // Tabs blocks of pages (render.HTML's markup): without script every
  // panel shows under its title; with it, the tab list switches panels.
  function initTabs() {
    $$(".markdown .tabs").forEach(function (box) {
      var list = $(".tabs-list", box);
      if (!list) return;
      var tabs = $$("[role=tab]", list);
      var select = function (tab, focus) {
        tabs.forEach(function (t) {
          var on = t === tab, panel = document.getElementById(t.getAttribute("aria-controls"));
          t.setAttribute("aria-selected", String(on));
          t.tabIndex = on ? 0 : -1;
          if (panel) panel.hidden = !on;
        });
        if (focus) tab.focus();
      };
      tabs.forEach(function (t, i) {
        t.addEventListener("click", function () { select(t, false); });
        t.addEventListener("keydown", function (e) {
          var d = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
          if (e.key === "Home") { e.preventDefault(); select(tabs[0], true); return; }
          if (e.key === "End") { e.preventDefault(); select(tabs[tabs.length - 1], true); return; }
          if (d) { e.preventDefault(); select(tabs[(i + d + tabs.length) % tabs.length], true); }
        });
      });
      box.classList.add("tabs-ready");
      list.hidden = false;
      select(tabs.filter(function (t) { return t.getAttribute("aria-selected") === "true"; })[0] || tabs[0], false);
    });
  }

  // Code blocks get a copy button.
  function initCopy() {
    if (!navigator.clipboard) return;
    $$(".markdown pre.chroma, .markdown pre").forEach(function (pre) {
      if (pre.querySelector(".copy-code")) return;
      var b = el("button", "copy-code", "Copy");
      b.type = "button";
      b.setAttribute("aria-label", "Copy the code");
      b.addEventListener("click", function () {
        var code = $("code", pre) || pre;
        navigator.clipboard.writeText(code.innerText.replace(/\nCopy$/, "")).then(function () {
          b.textContent = "Copied"; setTimeout(function () { b.textContent = "Copy"; }, 1500);
        });
      });
      pre.insertBefore(b, pre.firstChild);
    });
  }

  // The table of contents marks the section being read.
  function initTOC() {
    var links = $$(".toc a");
    if (!links.length || !window.IntersectionObserver) return;
    var byID = {};
    links.forEach(function (a) { byID[decodeURIComponent(a.hash.slice(1))] = a; });
    var obs = new IntersectionObserver(function (entries) {
      entries.forEach(function (en) {
        if (!en.isIntersecting || !byID[en.target.id]) return;
        links.forEach(function (a) { a.classList.remove("active"); });
        byID[en.target.id].classList.add("active");
      });
    }, { rootMargin: "-80px 0px -70% 0px" });
    Object.keys(byID).forEach(function (id) { var h = document.getElementById(id); if (h) obs.observe(h); });
  }

  function init() { initMenu(); initGroups(); initSearch(); initAsk(); initTabs(); initCopy(); initTOC(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
