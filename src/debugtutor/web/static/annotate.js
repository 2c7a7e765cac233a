/* The dialogue editor: the benchmark file in CodeMirror, checked by the server's parser as you type, saved with
   the version it was made from (a stale version is refused with a conflict message, never overwritten). */
dt.page("annotate-edit", function () {
  "use strict";
  CodeMirror.defineMode("socratic", function () {
    return {
      startState: function () { return { inCode: false }; },
      token: function (stream, state) {
        if (stream.sol()) {
          stream.eatSpace();
          if (stream.match(/^<\/?[a-z_]+>/)) {
            var tag = stream.current().trim();
            if (tag === "<code>") state.inCode = true;
            if (tag === "</code>") state.inCode = false;
            return tag === "<alt>" ? "atom" : "tag";
          }
          if (stream.match(/^User:/)) return "keyword";
          if (stream.match(/^(Assistant|Instructor):/)) return "def";
          if (state.inCode && stream.match(/^\d+\./)) return "number";
        }
        stream.skipToEnd();
        return state.inCode ? "variable-2" : null;
      },
    };
  });

  var root = document.getElementById("annotate");
  var base = "/annotate/d/" + root.dataset.dialogue;
  var name = root.dataset.name;
  var version = parseInt(root.dataset.version, 10);
  var cm = dt.editor(document.getElementById("text"), { mode: "socratic", indentWithTabs: true, lineWrapping: true,
    extraKeys: { "Ctrl-S": function () { save(); }, "Cmd-S": function () { save(); } } });
  window.annotateEditor = cm;
  var saved = cm.getValue();
  var latestCode = "";
  var errorLine = null;
  var validation = document.getElementById("validation");
  var structure = document.getElementById("structure");
  var conflictBox = document.getElementById("conflict");
  var saveError = document.getElementById("save-error");
  var saveState = document.getElementById("save-state");

  function setVersion(v) {
    version = v;
    root.dataset.version = String(v);
    document.getElementById("version").textContent = "version " + v;
  }
  function dirty() { return cm.getValue() !== saved; }
  function remember(v, what) {
    var who = document.querySelector("header .who span");
    var body = document.querySelector("#history tbody");
    body.insertBefore(dt.el("tr", {}, dt.el("td", { text: String(v) }), dt.el("td", { text: who ? who.textContent : "" }),
      dt.el("td", { text: "just now" }), dt.el("td", { text: what })), body.firstChild);
  }
  function showDirty() { saveState.textContent = dirty() ? "unsaved changes" : "saved"; }

  async function check() {
    var result = await dt.postJSON("/annotate/validate", { text: cm.getValue(), name: name });
    if (!result.ok) { validation.textContent = dt.detail(result.data); return; }
    var data = result.data;
    if (errorLine !== null) { cm.removeLineClass(errorLine, "background", "cm-error-line"); errorLine = null; }
    structure.innerHTML = "";
    validation.innerHTML = "";
    if (!data.ok) {
      validation.appendChild(dt.el("span", { class: "bad", "data-state": "invalid", text: "✗ " + data.error }));
      if (data.line) { errorLine = data.line - 1; cm.addLineClass(errorLine, "background", "cm-error-line"); }
      return;
    }
    latestCode = data.latest_code;
    validation.appendChild(dt.el("span", { class: "ok", "data-state": "valid",
      text: "✓ parses: " + data.student_turns + " student and " + data.instructor_turns + " instructor turns, " +
        data.alternatives + " alternatives, " + data.code_blocks + " code edits; " + data.examples +
        " evaluation example(s)" }));
    data.structure.forEach(function (turn) {
      var item = dt.el("li", { class: "speaker-" + turn.speaker },
        (turn.speaker === "student" ? "Student: " : "Instructor: ") + turn.text +
        (turn.alternatives ? "  [+" + turn.alternatives + " alt]" : "") + (turn.code ? "  [code]" : ""));
      item.addEventListener("click", function () { cm.focus(); cm.setCursor({ line: turn.line - 1, ch: 0 }); });
      structure.appendChild(item);
    });
  }
  var checkSoon = dt.debounce(check, 300);
  cm.on("change", function () { showDirty(); checkSoon(); });
  check();

  function insertAfterCursorLine(text) {
    var line = cm.getCursor().line;
    var end = { line: line, ch: cm.getLine(line).length };
    cm.replaceRange("\n" + text, end);
    var lines = text.split("\n");
    cm.setCursor({ line: line + 1, ch: lines[0].length });
    cm.focus();
  }
  var snippets = {
    student: function () { return "User: "; },
    instructor: function () { return "Assistant: "; },
    alt: function () { return "\t<alt>"; },
    code: function () { return "<code>\n" + (latestCode || "1. ") + "\n</code>"; },
  };
  document.querySelectorAll("[data-insert]").forEach(function (button) {
    button.addEventListener("click", function () { insertAfterCursorLine(snippets[button.dataset.insert]()); });
  });
  document.getElementById("undo").addEventListener("click", function () { cm.undo(); cm.focus(); });
  document.getElementById("redo").addEventListener("click", function () { cm.redo(); cm.focus(); });

  function showConflict(data) {
    conflictBox.textContent = "Conflict: " + dt.detail(data);
    conflictBox.hidden = false;
  }

  async function save() {
    saveError.hidden = true;
    var text = cm.getValue();
    var result = await dt.postJSON(base + "/save", { text: text, version: version });
    if (result.status === 409) { showConflict(result.data); saveState.textContent = "not saved"; return; }
    if (!result.ok) { saveError.textContent = dt.detail(result.data); saveError.hidden = false; return; }
    conflictBox.hidden = true;
    saved = text;
    setVersion(result.data.version);
    saveState.textContent = result.data.changed ? "saved as version " + result.data.version : "no changes to save";
    if (result.data.changed) remember(result.data.version, "edited");
  }
  document.getElementById("save").addEventListener("click", save);

  document.getElementById("revert").addEventListener("click", async function () {
    if (dirty() && !window.confirm("Discard your unsaved changes and go back to the previous saved version?")) return;
    var result = await dt.postJSON(base + "/undo", { version: version });
    if (result.status === 409) { showConflict(result.data); return; }
    if (!result.ok) { saveError.textContent = dt.detail(result.data); saveError.hidden = false; return; }
    saved = result.data.text;
    cm.setValue(result.data.text);
    setVersion(result.data.version);
    saveState.textContent = "restored the previous version (saved as version " + result.data.version + ")";
    remember(result.data.version, "undo");
  });

  document.getElementById("thread").addEventListener("click", async function () {
    var result = await dt.postJSON(base + "/thread", { line: cm.getCursor().line + 1 });
    if (!result.ok) { saveError.textContent = dt.detail(result.data); saveError.hidden = false; return; }
    window.location.href = result.data.url;
  });

  window.addEventListener("beforeunload", function (event) {
    if (dirty()) { event.preventDefault(); event.returnValue = ""; }
  });
});
