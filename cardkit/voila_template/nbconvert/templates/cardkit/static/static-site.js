/* cardkit's static site (frontend "voici"): the page is readable at once and Python starts in the
   background. (Part of the static page, built by cardkit/static_site/build.py, which names it PAGE_SCRIPT; what it
   relies on of Voici and JupyterLite is checked there: upstream.py, voici-progress and jl-service-worker*.) This script
   - says what Python is doing in the line at the top (#ck-python): how much of its download has come
     ("Starting Python: 3.2 of 13.7 MB", counted by the kernel's worker: pyodide-preload.js), the page's
     set-up, and when it is ready; on a page opened as a file, where Python cannot start, that the site needs a
     web server, and the command that serves its folder;
   - swaps each widget's still picture for the live widget once its cell has run (Voici appends the live
     output to the cell; the picture, .ck-static, goes);
   - keeps the site's service worker (service-worker.js) registered: JupyterLite's own registration code
     would unregister every service worker the first time it sees one it has not recorded;
   - offline (the service worker, service-worker.js, Workbox): keeps this page and what it loaded once Python is
     ready; offers "Save every page" for the whole site (asked for by itself only when the site is installed as
     an app, and never on a connection that saves data); says when a new version of the site is ready, with a
     Reload button (workbox-window), so that a page is never half one build, half another. */
(function () {
  "use strict";
  var config = JSON.parse(document.getElementById("jupyter-config-data").textContent);
  var line = document.getElementById("ck-python");
  var text = line && line.querySelector(".ck-python-text");
  var offline = line && line.querySelector(".ck-offline");
  var ready = false;

  /* `words`: the line; `more`, what follows it on a wide screen (a phone shows the line alone) */
  function say(words, state, more) {
    if (text) {
      text.textContent = words;
      if (more) {
        var span = document.createElement("span");
        span.className = "ck-python-more";
        span.textContent = more;
        text.appendChild(span);
        text.appendChild(document.createTextNode("."));
      }
    }
    if (line && state) line.setAttribute("data-state", state);
  }

  /* JupyterLite's ServiceWorkerManager unregisters all service workers when it finds none recorded for the
     controlling worker's URL and its app version; record ours, so the site stays available offline. */
  try {
    var sw = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (sw) localStorage.setItem(sw.scriptURL + "-version", config.appVersion);
  } catch (e) { /* private mode: nothing to keep */ }

  /* Opened as a file (a double-click on a page of the built folder): the browser lets no such page start
     Python. Say so, and how to serve the folder (its pages sit at its top: the page's own folder). */
  var fromFile = location.protocol === "file:";
  if (fromFile && text) {
    var path = location.pathname, cut = path.lastIndexOf("/");
    var folder = path.slice(0, cut), page = path.slice(cut + 1) || "index.html";
    try { folder = decodeURIComponent(folder); page = decodeURIComponent(page); } catch (e) { /* as written */ }
    if (/^\/[A-Za-z]:/.test(folder)) folder = folder.slice(1);            // Windows: /C:/Users/...
    if (/[^\w\/.:\\-]/.test(folder)) folder = '"' + folder.replace(/"/g, '\\"') + '"';
    text.textContent = "This page was opened as a file, and Python cannot start here: the site needs a web " +
      "server. The rules are all here to read. To play, serve the site's folder from a terminal with ";
    var command = document.createElement("code");
    command.className = "ck-command";
    command.textContent = "python3 -m http.server -d " + folder + " 8000";
    var address = document.createElement("a");
    address.href = address.textContent = "http://localhost:8000/" + page;
    text.appendChild(command);
    text.appendChild(document.createTextNode(" and open "));
    text.appendChild(address);
    text.appendChild(document.createTextNode("."));
    line.setAttribute("data-state", "file");
    offline = null;                    // (nothing can be kept offline from a file)
  }

  /* Python's start, in honest figures: the download as it arrives, then its set-up, then the page's. */
  var MORE = " \u2014 the rules are here to read; the switches, replays and the play table come alive once it has started";
  var phase = fromFile ? "file" : "starting", news = Date.now(), began = Date.now();
  function mbOf(done, total) { return (done / 1e6).toFixed(1) + " of " + (total / 1e6).toFixed(1) + " MB"; }
  function starting() {
    if (ready || phase !== "starting") return;
    var p = window.ckStart;
    if (!p || !p.total) say("Starting Python in your browser", "starting", MORE);
    else if (p.done < p.total) say("Starting Python: " + mbOf(p.done, p.total), "starting", MORE);
    else say("Starting Python: " + (p.total / 1e6).toFixed(1) + " MB downloaded, now setting it up", "starting", MORE);
  }
  window.addEventListener("ck-start", function () { news = Date.now(); starting(); });
  if (!fromFile) starting();

  /* Voici reports its progress through these two (voila_setup.macro.html.j2 defines them for the spinner). */
  window.update_loading_text = function (index, count, words) {
    if (ready || fromFile) return;
    news = Date.now();
    if (words) starting();
    else if (count) {
      phase = "running";
      say("Python is setting up this page (" + index + " of " + count + ")", "running", " \u2014 the rules are here to read");
    }
  };
  window.display_cells = function () {
    if (ready) return;
    ready = true;
    say("Ready", "ready", ": Python runs in your browser, and the switches, replays and the play table work");
    document.body.classList.add("ck-python-ready");
    keepThisPage();
  };
  /* Past a minute and a half with no news for half a minute (no byte of the download, no step of the set-up),
     Python is stuck rather than slow. */
  var watch = fromFile ? null : setInterval(function () {
    if (ready) { clearInterval(watch); return; }
    if (Date.now() - began < 90000 || Date.now() - news < 30000) return;
    clearInterval(watch);
    phase = "slow";
    say("Python has not started yet. The rules are all here; to play, reload the page (a phone may "
        + "need a minute the first time).", "slow");
  }, 5000);

  /* Swap a still picture for the live output: Voici adds .jp-Cell-outputWrapper to the cell when it has run.
     A cell without a widget (.ck-static without .ck-waiting) only ran its imports in the browser, and keeps
     what the build wrote (an import may show something, the kit's style sheet: it goes beside it). */
  new MutationObserver(function (changes) {
    changes.forEach(function (change) {
      change.addedNodes.forEach(function (node) {
        if (!(node instanceof HTMLElement) || !node.classList.contains("jp-Cell-outputWrapper")) return;
        var cell = node.parentElement;
        var still = cell && cell.querySelector(":scope > .ck-static.ck-waiting");
        if (still) still.remove();
      });
    });
  }).observe(document.getElementById("ck-page"), { childList: true, subtree: true });

  /* Offline (service-worker.js). Once Python is ready the page sends the worker what it loaded ("cardkit-keep":
     its address, what its resource timing lists, and the worker adds what Python's start fetched): this page
     then works without a network. The whole site only when the visitor asks ("Save every page") or has
     installed the site as an app, and never on a connection that says it saves data. The worker answers with
     "cardkit-offline" messages: what is kept, the progress of the whole site, a failure. */
  var sw = ("serviceWorker" in navigator && offline && !fromFile) ? navigator.serviceWorker : null;
  var saveData = !!(navigator.connection && navigator.connection.saveData);
  var hadController = !!(sw && sw.controller), wb = null, update = false, reloading = false;
  var thisPage = location.href.split("#")[0].split("?")[0];
  if (/\/$/.test(thisPage)) thisPage += "index.html";
  try { performance.setResourceTimingBufferSize(5000); } catch (e) { /* an old browser: its default */ }
  function mb(n) { return (n / 1e6).toFixed(1) + " MB"; }
  function offlineButton(label, title, click) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "ck-offline-button";
    b.textContent = label;
    if (title) b.title = title;
    b.addEventListener("click", click);
    return b;
  }
  function offlineSay(words, state, button) {
    offline.textContent = words;
    if (state) offline.setAttribute("data-state", state); else offline.removeAttribute("data-state");
    if (button) offline.appendChild(button);
  }
  var SAVE_DATA = "Not saved: your connection is set to save data. The pages you open still work offline.";
  function showOffline(m) {
    if (!offline || update) return;
    if (m.saveData && !m.complete) return offlineSay(SAVE_DATA, "save-data");
    if (m.complete) return offlineSay("Available offline: every page works without a network.", "complete");
    if (m.saving) {
      return offlineSay("Saving every page for offline use: " + mb(Math.min(m.doneBytes, m.totalBytes)) + " of " +
                        mb(m.totalBytes) + "\u2026", "saving");
    }
    var kept = m.pages && m.pages.indexOf(thisPage) >= 0;
    var words = m.failed ? "Saving every page stopped (" + m.failed + "). "
                         : kept ? "This page works offline. " : "";
    offlineSay(words, m.failed ? "failed" : kept ? "kept" : null, saveButton(m.totalBytes));
  }
  function saveButton(total) {
    return offlineButton("Save every page" + (total ? " (" + mb(total) + ")" : ""),
      "Keep the whole site in this browser, so that every page works without a network",
      function () {
        if (saveData) {
          offlineSay(SAVE_DATA, "save-data");
        } else {
          keepWholeSite();
        }
      });
  }
  function post(message) {
    if (sw) sw.ready.then(function (reg) { if (reg.active) reg.active.postMessage(message); });
  }
  function keepThisPage() {
    if (!sw) return;
    var urls = [thisPage];
    performance.getEntriesByType("resource").forEach(function (e) { urls.push(e.name); });
    post({ type: "cardkit-keep", urls: urls });
    if (installed() && !saveData) keepWholeSite();
  }
  function keepWholeSite() {
    if (!sw || saveData) return;
    offlineSay("Saving every page for offline use\u2026", "saving");
    post({ type: "cardkit-precache" });
  }
  function installed() {
    return !!(window.matchMedia && (matchMedia("(display-mode: standalone)").matches ||
                                    matchMedia("(display-mode: minimal-ui)").matches));
  }
  /* A new version of the site, saved beside this one: say so; Reload activates it and loads the page again. */
  function showUpdate(activate) {
    if (!offline) return;
    update = true;
    offlineSay("A new version of the site is ready. ", "update", offlineButton("Reload", null, function () {
      reloading = true;
      if (activate) { activate(); setTimeout(function () { location.reload(); }, 5000); }
      else location.reload();
    }));
  }
  if (sw) {
    sw.addEventListener("message", function (event) {
      var m = event.data || {};
      if (m.type === "cardkit-offline") showOffline(m);
    });
    /* The page's worker changed: the one this page asked to activate (reload now), or a newer version activated
       from another page (this page is of the old one: offer the reload). */
    sw.addEventListener("controllerchange", function () {
      if (reloading) location.reload();
      else if (hadController) showUpdate(null);
      hadController = true;
    });
    window.addEventListener("appinstalled", function () { if (!saveData) keepWholeSite(); });
    offline.appendChild(saveButton(0));
    post({ type: "cardkit-status" });
    /* workbox-window (shipped in static/workbox/) registers the address JupyterLite registers, and reports a new
       version waiting. */
    var script = document.createElement("script");
    script.src = new URL("static/workbox/workbox-window.prod.umd.js", new URL(config.baseUrl || "./", location.href)).href;
    script.onload = function () {
      var url = new URL("service-worker.js?enableCache=false", new URL(config.baseUrl || "./", location.href)).href;
      wb = new window.workbox.Workbox(url);
      wb.addEventListener("waiting", function () { showUpdate(function () { wb.messageSkipWaiting(); }); });
      wb.register().catch(function () { /* no service worker: nothing is kept offline */ });
      document.addEventListener("visibilitychange", function () {
        if (document.visibilityState === "visible") wb.update().catch(function () {});
      });
    };
    document.head.appendChild(script);
  }
})();
