/* debugtutor web app: helpers shared by every page (no framework; CodeMirror is loaded by the pages that edit). */
(function () {
  "use strict";

  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }

  /* POST a JSON body with the CSRF header; resolves to {ok, status, data} and never throws on HTTP errors. */
  async function postJSON(url, body) {
    var response;
    try {
      response = await fetch(url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRF-Token": csrfToken() },
        body: JSON.stringify(body || {}),
      });
    } catch (err) {
      return { ok: false, status: 0, data: { detail: "the server cannot be reached: " + err } };
    }
    var data;
    try { data = await response.json(); } catch (err) { data = { detail: response.status + " " + response.statusText }; }
    return { ok: response.ok, status: response.status, data: data };
  }

  function detail(data) {
    if (!data) return "unknown error";
    if (typeof data.detail === "string") return data.detail;
    return JSON.stringify(data.detail || data);
  }

  function editor(textarea, options) {
    var settings = { lineNumbers: true, indentUnit: 4, tabSize: 4, indentWithTabs: false, lineWrapping: false,
                     extraKeys: { Tab: function (cm) { cm.replaceSelection("    "); } } };
    Object.keys(options || {}).forEach(function (key) { settings[key] = options[key]; });
    return window.CodeMirror.fromTextArea(textarea, settings);
  }

  function debounce(fn, ms) {
    var timer = null;
    return function () {
      var args = arguments;
      clearTimeout(timer);
      timer = setTimeout(function () { fn.apply(null, args); }, ms);
    };
  }

  /* el("td", {class: "num"}, "text", child) */
  function el(tag, attrs) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") node.textContent = attrs[key]; else node.setAttribute(key, attrs[key]);
    });
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined) continue;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  var pages = {};
  window.dt = {
    postJSON: postJSON, detail: detail, editor: editor, debounce: debounce, el: el,
    page: function (name, init) { pages[name] = init; },
  };
  document.addEventListener("DOMContentLoaded", function () {
    var init = pages[document.body.dataset.page];
    if (init) init();
    document.querySelectorAll("form[data-confirm]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        if (!window.confirm(form.dataset.confirm)) event.preventDefault();
      });
    });
  });
})();
