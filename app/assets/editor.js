// Quire app: the editor. Without it the editor is a plain form that saves;
// with it: a live preview, blocks inserted from the toolbar and shortcuts,
// images uploaded by drop or paste, a local draft that survives a reload,
// and saves that never overwrite another writer's newer save unasked.
(function () {
  "use strict";
  var form = document.getElementById("editor");
  if (!form) return;
  var md = document.getElementById("markdown");
  var title = document.getElementById("title");
  var preview = document.getElementById("preview");
  var status = document.getElementById("save-status");
  var post = form.getAttribute("data-post");
  var draftKey = form.getAttribute("data-draft-key");
  var csrf = form.elements.csrf.value;
  var base = form.elements.base;
  var saved = { title: title.value, markdown: md ? md.value : "" };

  function say(text, error) {
    status.textContent = text;
    status.classList.toggle("error", !!error);
  }

  function send(url, body, accept) {
    return fetch(url, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "X-CSRF-Token": csrf, "Accept": accept || "application/json" }
    });
  }

  function errorOf(resp) {
    return resp.json().then(function (j) { return j.error || resp.statusText; }, function () { return resp.statusText; });
  }

  // Local draft: kept on every change, restored on load, cleared on save.
  function readDraft() {
    try { return JSON.parse(localStorage.getItem(draftKey) || "null"); } catch (e) { return null; }
  }
  function keepDraft() {
    var d = { title: title.value, markdown: md ? md.value : "", base: base.value, at: new Date().toISOString() };
    if (d.title === saved.title && d.markdown === saved.markdown) { dropDraft(); return; }
    try { localStorage.setItem(draftKey, JSON.stringify(d)); } catch (e) { /* full or private: the form still saves */ }
  }
  function dropDraft() {
    try { localStorage.removeItem(draftKey); } catch (e) { /* private mode */ }
  }
  function restoreDraft() {
    var d = readDraft();
    if (!d || (d.title === saved.title && d.markdown === saved.markdown)) { dropDraft(); return; }
    title.value = d.title;
    if (md) md.value = d.markdown;
    // The draft was written on its own base: saving it must not overwrite
    // what was saved since without asking.
    if (d.base) base.value = d.base;
    document.getElementById("draft-when").textContent = new Date(d.at).toLocaleString();
    document.getElementById("draft-note").hidden = false;
    refreshPreview();
  }
  document.getElementById("discard-draft").addEventListener("click", function () {
    dropDraft();
    location.reload();
  });

  // Preview: rendered by the server, a moment after typing stops.
  var timer = null, seq = 0;
  function refreshPreview() {
    if (!md) return;
    var n = ++seq, body = new URLSearchParams();
    body.set("markdown", md.value);
    body.set("page", form.elements.page.value);
    send(post + "/preview", body, "text/html").then(function (resp) {
      if (!resp.ok) throw new Error(resp.statusText);
      return resp.text();
    }).then(function (html) {
      if (n === seq) preview.innerHTML = html; // the renderer's safe HTML
    }).catch(function () { /* keep the last preview */ });
  }
  function changed() {
    keepDraft();
    clearTimeout(timer);
    timer = setTimeout(refreshPreview, 300);
  }
  title.addEventListener("input", function () { keepDraft(); });
  if (md) md.addEventListener("input", changed);

  // Saving, and the conflict with another writer's newer save.
  var conflict = document.getElementById("conflict");
  function save() {
    say("Saving…");
    var body = new URLSearchParams(new FormData(form));
    return send(post + "/save", body).then(function (resp) {
      if (resp.ok) {
        return resp.json().then(function (j) {
          base.value = j.revision;
          saved = { title: title.value, markdown: md ? md.value : "" };
          dropDraft();
          conflict.hidden = true;
          document.getElementById("draft-note").hidden = true;
          say("Saved.");
          if (j.url && j.url !== location.pathname) history.replaceState(null, "", j.url);
        });
      }
      if (resp.status === 409) {
        return resp.json().then(function (j) {
          conflict.hidden = false;
          conflict.setAttribute("data-revision", j.revision || "");
          say("Not saved: someone else saved first.", true);
          document.getElementById("overwrite").focus();
        });
      }
      return errorOf(resp).then(function (msg) { say("Not saved: " + msg, true); });
    }).catch(function () { say("Not saved: the server could not be reached. Your draft is kept here.", true); });
  }
  form.addEventListener("submit", function (e) { e.preventDefault(); save(); });
  document.getElementById("overwrite").addEventListener("click", function () {
    base.value = conflict.getAttribute("data-revision");
    save();
  });
  document.getElementById("reload-theirs").addEventListener("click", function () {
    dropDraft();
    location.reload();
  });

  // Inserting: wrap the selection, or put a block on its own lines.
  var blocks = {
    bold: ["**", "bold text", "**"],
    italic: ["_", "italic text", "_"],
    link: ["[", "link text", "](https://)"],
    heading: ["\n## ", "Heading", "\n"],
    hint: ['\n{% hint style="info" %}\n', "A hint for the reader.", "\n{% endhint %}\n"],
    tabs: ['\n{% tabs %}\n{% tab title="First" %}\n', "The first tab.", '\n{% endtab %}\n{% tab title="Second" %}\nThe second tab.\n{% endtab %}\n{% endtabs %}\n'],
    code: ['\n{% code title="example.sh" %}\n```bash\n', "echo hello", "\n```\n{% endcode %}\n"]
  };
  function insert(name) {
    var b = blocks[name], s = md.selectionStart, e = md.selectionEnd;
    var inner = md.value.slice(s, e) || b[1], before = b[0];
    // A block starts on a line of its own, with no blank line more than needed.
    if (before.charAt(0) === "\n" && (s === 0 || md.value.charAt(s - 1) === "\n")) before = before.slice(1);
    b = [before, b[1], b[2]];
    md.focus();
    md.setRangeText(b[0] + inner + b[2], s, e, "end");
    md.setSelectionRange(s + b[0].length, s + b[0].length + inner.length);
    changed();
  }
  function insertText(text) {
    md.focus();
    md.setRangeText(text, md.selectionStart, md.selectionEnd, "end");
    changed();
  }
  if (md) {
    form.querySelectorAll("[data-insert]").forEach(function (btn) {
      btn.addEventListener("click", function () { insert(btn.getAttribute("data-insert")); });
    });
    md.addEventListener("keydown", function (e) {
      if (!(e.ctrlKey || e.metaKey)) return;
      var k = e.key.toLowerCase(), name = null;
      if (e.altKey) name = { h: "hint", t: "tabs", c: "code" }[k];
      else name = { b: "bold", i: "italic", k: "link" }[k];
      if (name) { e.preventDefault(); insert(name); }
    });
  }
  document.addEventListener("keydown", function (e) {
    if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") { e.preventDefault(); save(); }
  });

  // Images: dropped, pasted or chosen, uploaded into the change request's
  // files, then shown where the cursor is.
  function upload(file) {
    if (file.size > 1048576) { say("Not uploaded: " + file.name + " is larger than 1 MiB.", true); return null; }
    say("Uploading " + file.name + "…");
    var body = new FormData();
    body.append("file", file, file.name);
    return send(post + "/files?base=" + encodeURIComponent(base.value), body).then(function (resp) {
      if (!resp.ok) return errorOf(resp).then(function (msg) { say("Not uploaded: " + msg, true); });
      return resp.json().then(function (j) {
        if (j.onBase) base.value = j.revision;
        insertText(j.markdown);
        say("Uploaded " + j.name + ".");
      });
    }).catch(function () { say("Not uploaded: the server could not be reached.", true); });
  }
  // One at a time, so that each moves the base on from the last.
  var uploads = Promise.resolve();
  function uploadAll(files) {
    Array.prototype.forEach.call(files, function (f) {
      if (/^image\//.test(f.type)) uploads = uploads.then(function () { return upload(f); });
    });
  }
  if (md) {
    md.addEventListener("dragover", function (e) { e.preventDefault(); md.classList.add("dragging"); });
    md.addEventListener("dragleave", function () { md.classList.remove("dragging"); });
    md.addEventListener("drop", function (e) {
      md.classList.remove("dragging");
      if (e.dataTransfer && e.dataTransfer.files.length) { e.preventDefault(); uploadAll(e.dataTransfer.files); }
    });
    md.addEventListener("paste", function (e) {
      if (e.clipboardData && e.clipboardData.files.length) { e.preventDefault(); uploadAll(e.clipboardData.files); }
    });
    document.getElementById("upload").addEventListener("change", function (e) {
      uploadAll(e.target.files);
      e.target.value = "";
    });
  }

  restoreDraft();
})();
