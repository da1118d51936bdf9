/* cardkit's static site (frontend "voici"): the page is readable at once and Python starts in the
   background. This script
   - says what Python is doing in the line at the top (#ck-python), and when it is ready;
   - swaps each widget's still picture for the live widget once its cell has run (Voici appends the live
     output to the cell; the picture, .ck-static, goes);
   - keeps the site's service worker (service-worker.js) registered: JupyterLite's own registration code
     would unregister every service worker the first time it sees one it has not recorded;
   - offers "Make available offline" (the service worker caches every file of the site) and, once Python is
     ready, asks for it in the background anyway, so after a first visit every page works without a network. */
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

  /* Voici reports its progress through these two (voila_setup.macro.html.j2 defines them for the spinner). */
  window.update_loading_text = function (index, count, words) {
    if (ready) return;
    if (words) say("Starting Python in your browser", "starting",
                   " \u2014 the rules are here to read; the switches, replays and the play table come alive in a few seconds");
    else if (count) say("Python is setting up this page (" + index + " of " + count + ")", "running",
                        " \u2014 the rules are here to read");
  };
  window.display_cells = function () {
    if (ready) return;
    ready = true;
    say("Ready", "ready", ": Python runs in your browser, and the switches, replays and the play table work");
    document.body.classList.add("ck-python-ready");
    precache(false);
  };
  setTimeout(function () {
    if (!ready) say("Python has not started yet. The rules are all here; to play, reload the page (a phone may "
                    + "need a minute the first time).", "slow");
  }, 90000);

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

  /* Offline: the service worker answers "cardkit-precache" with progress messages. */
  function mb(n) { return (n / 1e6).toFixed(1) + " MB"; }
  var button = null, asked = false;
  function showOffline(m) {
    if (!offline) return;
    if (m.complete) {
      offline.textContent = "Available offline: every page works without a network.";
      offline.setAttribute("data-state", "complete");
      return;
    }
    if (m.failed) {
      offline.textContent = "Saving for offline use stopped (" + m.failed + "); it goes on at your next visit. ";
      offline.appendChild(makeButton());
      return;
    }
    offline.textContent = "Saving the site for offline use: " + mb(m.doneBytes) + " of " + mb(m.totalBytes) + "\u2026";
  }
  function makeButton() {
    button = document.createElement("button");
    button.type = "button";
    button.className = "ck-offline-button";
    button.textContent = "Make available offline";
    button.title = "keep every page of this site in this browser, so that it works without a network";
    button.addEventListener("click", function () { precache(true); });
    return button;
  }
  function precache(asked_by_reader) {
    if (!("serviceWorker" in navigator) || !offline) return;
    asked = asked || asked_by_reader;
    navigator.serviceWorker.ready.then(function (reg) {
      if (reg.active) reg.active.postMessage({ type: "cardkit-precache" });
    });
  }
  if ("serviceWorker" in navigator && offline) {
    navigator.serviceWorker.addEventListener("message", function (event) {
      var m = event.data || {};
      if (m.type === "cardkit-offline") showOffline(m);
    });
    offline.appendChild(makeButton());
    navigator.serviceWorker.ready.then(function (reg) {
      if (reg.active) reg.active.postMessage({ type: "cardkit-status" });
    });
  }
})();
