/* cardkit: one live region for the whole page. The kit's widgets replace their HTML on every update, and a
   live region that is itself replaced is not reliably read out; so this script keeps two regions that
   never change identity and copies into them what the widgets mark: `.ck-live` (what just happened at
   the play table: read politely) and `.ck-error[role=alert]` (a refused move: read at once). */
(function () {
  "use strict";
  var HIDDEN = "position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap";

  function region(id, live) {
    var el = document.createElement("div");
    el.id = id;
    el.setAttribute("aria-live", live);
    el.setAttribute("role", live === "assertive" ? "alert" : "status");
    el.setAttribute("style", HIDDEN);
    document.body.appendChild(el);
    return el;
  }

  function setup() {
    if (document.getElementById("ck-announcer")) return;
    var polite = region("ck-announcer", "polite");
    var urgent = region("ck-alerter", "assertive");
    var said = { polite: "", urgent: "" };
    var queued = false;

    function copy() {
      queued = false;
      var live = document.querySelectorAll(".ck-live");
      var text = live.length ? live[live.length - 1].innerText.trim() : "";
      if (text && text !== said.polite) { said.polite = text; polite.textContent = text; }
      var errors = document.querySelectorAll(".ck-error[role=alert]");
      var err = errors.length ? errors[errors.length - 1].innerText.trim() : "";
      if (err !== said.urgent) { said.urgent = err; urgent.textContent = err; }
    }

    new MutationObserver(function () {
      if (!queued) { queued = true; window.requestAnimationFrame(copy); }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
