/* The tutoring page: the code editor, "Run tests", the chat with the instructor. */
dt.page("tutor-session", function () {
  "use strict";
  var root = document.getElementById("tutor");
  var base = "/tutor/" + root.dataset.session;
  var cm = dt.editor(document.getElementById("code"), { mode: "python" });
  var saveState = document.getElementById("save-state");
  var status = document.getElementById("test-status");
  var chat = document.getElementById("chat");
  var form = document.getElementById("say-form");
  var message = document.getElementById("message");
  var send = document.getElementById("send");
  var runButton = document.getElementById("run-tests");
  var problemError = document.getElementById("tutor-error");
  window.tutorEditor = cm;

  function showError(text) { problemError.textContent = text; problemError.hidden = !text; }

  var save = dt.debounce(async function () {
    var result = await dt.postJSON(base + "/code", { code: cm.getValue() });
    saveState.textContent = result.ok ? "saved" : "not saved: " + dt.detail(result.data);
  }, 700);
  cm.on("change", function () { saveState.textContent = "editing…"; save(); });

  function setStatus(passing, total, solved) {
    if (total === null || total === undefined) return;
    status.textContent = solved ? "All " + total + " tests pass" : passing + " of " + total + " tests pass";
    status.className = "badge " + (solved ? "ok" : "bad");
  }

  function addMessage(speaker, text, edited) {
    var bubble = dt.el("div", { class: "msg " + speaker },
      dt.el("span", { class: "who", text: speaker === "student" ? "you" : "tutor" }), text);
    if (edited) bubble.appendChild(dt.el("span", { class: "edit", text: " (code edited)" }));
    chat.appendChild(bubble);
    chat.scrollTop = chat.scrollHeight;
  }

  runButton.addEventListener("click", async function () {
    runButton.disabled = true;
    showError("");
    var result = await dt.postJSON(base + "/run", { code: cm.getValue() });
    runButton.disabled = false;
    if (!result.ok) { showError(dt.detail(result.data)); return; }
    var data = result.data;
    var body = document.querySelector("#test-results tbody");
    body.innerHTML = "";
    data.tests.forEach(function (test) {
      body.appendChild(dt.el("tr", { "data-status": test.status },
        dt.el("td", { class: "mono", text: test.source }),
        dt.el("td", { class: "status-" + test.status, text: test.status }),
        dt.el("td", { class: "mono", text: test.actual === null ? "" : test.actual }),
        dt.el("td", { class: "mono", text: test.expected === null ? "" : test.expected }),
        dt.el("td", { class: "mono", text: test.error || "" })));
    });
    document.getElementById("test-results").hidden = false;
    var summary = document.getElementById("run-summary");
    summary.textContent = data.setup_error ? "The program does not load: " + data.setup_error
      : (data.all_passed ? "All " + data.total + " tests pass." : data.passed + " of " + data.total + " tests pass.");
    summary.className = data.all_passed ? "ok" : "bad";
    setStatus(data.passed, data.total, data.all_passed);
  });

  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    var text = message.value.trim();
    send.disabled = true;
    showError("");
    var result = await dt.postJSON(base + "/say", { text: text, code: cm.getValue() });
    send.disabled = false;
    if (!result.ok) { showError(dt.detail(result.data)); return; }
    message.value = "";
    addMessage("student", result.data.student, result.data.student_code_changed);
    addMessage("instructor", result.data.tutor);
    setStatus(result.data.passing, result.data.total, result.data.solved);
    saveState.textContent = "saved";
  });
  message.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); form.requestSubmit(); }
  });
  chat.scrollTop = chat.scrollHeight;
});
