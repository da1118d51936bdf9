/* cardkit: one live region for the whole page, through which every table speaks. The kit's widgets replace their
   HTML on every update, and a live region that is itself replaced is not reliably read out (nor one that is new);
   so this script keeps two regions that never change identity and copies into them what the widgets mark:
   `.ck-live` (what just happened at a play table or in a replay, a round's end, a game's result, the Hint, a note:
   read politely) and `.ck-alert` (a refused move, a question before a game is thrown away: read at once). The
   widgets' own boxes are not live regions, so a move is said once, not twice.
   A table (`.ck-play`; a replay `.ck-replay` and a question `.ck-quiz` alike) speaks only what changed: of its `.ck-live` parts, those whose words are new
   since it last spoke. The first words of a table that was on the page before the visitor did anything (the
   replays' first step, as the page opens) are not read: nothing happened yet.
   It also hands the page's address to a reader's own example (widgets/example.py): see feedExamples below. */
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
    var spoken = new WeakMap();     // a table -> the words of its live parts when it last spoke
    var acted = false;              // the visitor has clicked or pressed a key on the page
    var saidUrgent = "";
    var queued = false;
    ["click", "keydown"].forEach(function (type) {
      document.addEventListener(type, function (e) { if (e.isTrusted) acted = true; }, true);
    });

    /* A slider's handle (ipywidgets' noUiSlider: a div with role=slider) is not tied to its label, so a screen
       reader would say "slider" and nothing else: it is given the label's words (a replay's: the example's step). */
    function nameSliders() {
      document.querySelectorAll(".widget-slider [role=slider]:not([aria-label])").forEach(function (handle) {
        var box = handle.closest(".widget-slider");
        var label = box && box.querySelector(".widget-label");
        var words = handle.closest(".ck-replay") ? "Step of the worked example"
          : (label && label.textContent.trim()) || "Value";
        handle.setAttribute("aria-label", words);
      });
    }

    /* A link to a reader's own example (`#example=…`, cardkit.share) reaches the page's "Your own example"
       (widgets/example.py) through its hidden text box, `.ck-example-inbox`: the page writes into it, as JSON, its
       address without the fragment and the fragment without '#', and fires the `change` event that ipywidgets'
       TextView sends its value on (the box's continuous_update is off). Once per box and address: when the box
       first appears (the kernel has drawn the widget; the static site's still picture, disabled, is skipped) and
       when the fragment changes (a link on the page was followed). Always once, an example in the address or
       not: the widget makes its share link and QR code from the page's address. The widget treats what it is
       given as untrusted; any other fragment (a rule's anchor, #FA-2) is left to the rules' own script. When the
       fragment is an example, the example is brought into view, again as the page grows around it, until the
       visitor scrolls, clicks or types. */
    var scrollUntil = 0;
    function feedExamples() {
      var hash = location.hash, fragment = hash.slice(1);
      var isExample = fragment.indexOf("example=") === 0;
      document.querySelectorAll(".ck-example-inbox input").forEach(function (input) {
        if (input.disabled || input.closest(".ck-static") || input.getAttribute("data-ck-fed") === hash) return;
        input.setAttribute("data-ck-fed", hash);
        input.value = JSON.stringify({ page: location.href.split("#")[0], fragment: fragment });
        input.dispatchEvent(new Event("change", { bubbles: true }));
        if (isExample) scrollUntil = Date.now() + 20000;
      });
      if (Date.now() < scrollUntil) {
        var fed = document.querySelector(".ck-example-inbox input[data-ck-fed]");
        var example = fed && fed.closest(".ck-example");
        if (example) example.scrollIntoView({ block: "start" });
      }
    }
    ["wheel", "touchstart", "mousedown", "keydown"].forEach(function (type) {
      document.addEventListener(type, function (e) { if (e.isTrusted) scrollUntil = 0; }, { capture: true, passive: true });
    });
    window.addEventListener("hashchange", feedExamples);

    /* A play table gives the focus to the player's next card (widgets/play.py, `_focus`) and the browser scrolls it
       into view; but the table may still grow or move while the computer's replies are drawn, leaving the card below
       the screen (a phone, a page that goes on below the table). For a moment after the focus, until the visitor
       scrolls, the focused control is kept in view ("nearest": its scroll margin keeps the trick above it). The
       moment is 3 s from the focus and from each later change of the table (on a slow or busy phone the computer's
       replies may come later than that), and each change is looked at again a moment after it is drawn. */
    var keepUntil = 0;
    document.addEventListener("focusin", function (e) {
      keepUntil = e.target.closest && e.target.closest(".ck-play") ? Date.now() + 3000 : 0;
      if (keepUntil) setTimeout(keepFocusInView, 0);
    }, true);
    ["wheel", "touchstart"].forEach(function (type) {
      document.addEventListener(type, function (e) { if (e.isTrusted) keepUntil = 0; }, { capture: true, passive: true });
    });
    // a scroll that is not the visitor's (the browser's own, keeping its place as the page above changes) is looked
    // at too, within the same moment
    window.addEventListener("scroll", function () {
      if (keepUntil && Date.now() <= keepUntil) window.requestAnimationFrame(keepFocusInView);
    }, { passive: true });
    // and so is a change of size that no change of the page's elements announces (the layout settling after a
    // render, a line that wraps anew): the page's and each play table's
    var resized = typeof ResizeObserver === "function" ? new ResizeObserver(function () {
      if (keepUntil && Date.now() <= keepUntil) window.requestAnimationFrame(keepFocusInView);
    }) : null;
    var watched = new WeakSet();
    function watchSizes() {
      if (!resized) return;
      [document.body].concat(Array.prototype.slice.call(document.querySelectorAll(".ck-play"))).forEach(function (el) {
        if (el && !watched.has(el)) { watched.add(el); resized.observe(el); }
      });
    }
    function tableChanged(records) {
      if (!keepUntil || Date.now() > keepUntil) return;
      for (var i = 0; i < records.length; i++) {
        var node = records[i].target;
        var el = node.nodeType === 1 ? node : node.parentElement;
        if (el && el.closest && el.closest(".ck-play")) {
          keepUntil = Date.now() + 3000;
          setTimeout(keepFocusInView, 350);
          return;
        }
      }
    }
    function keepFocusInView() {
      if (Date.now() > keepUntil) return;
      var el = document.activeElement;
      if (!el || !el.closest || !el.closest(".ck-play")) return;
      var r = el.getBoundingClientRect();
      if (r.top < 0 || r.bottom > window.innerHeight) {
        el.scrollIntoView({ block: "nearest" });
        r = el.getBoundingClientRect();
      }
      // and the trick in play above it, where the screen holds both: a card already in view is not scrolled by its
      // focus, so a trick left just above the screen by an earlier scroll would stay there
      var now = el.closest(".ck-play").querySelector(".ck-table .ck-now");
      if (!now) return;
      var a = now.getBoundingClientRect();
      if (a.top < 0 && r.bottom - a.top + 8 <= window.innerHeight) window.scrollBy(0, a.top - 4);
    }

    function copy() {
      queued = false;
      feedExamples();
      watchSizes();
      keepFocusInView();
      var tables = new Map();
      document.querySelectorAll(".ck-live").forEach(function (el) {
        var table = el.closest(".ck-play, .ck-replay, .ck-quiz") || document.body;
        var text = el.innerText.trim();
        if (!tables.has(table)) tables.set(table, []);
        if (text) tables.get(table).push(text);
      });
      var news = [];
      tables.forEach(function (parts, table) {
        var before = spoken.get(table);
        spoken.set(table, parts);
        if (!before && !acted) return;
        before = before || [];
        parts.forEach(function (p) { if (before.indexOf(p) < 0) news.push(p); });
      });
      var text = news.join("\n");
      if (text && text !== polite.textContent) polite.textContent = text;
      nameSliders();
      var alerts = document.querySelectorAll(".ck-alert");
      var err = alerts.length ? alerts[alerts.length - 1].innerText.trim() : "";
      if (err !== saidUrgent) { saidUrgent = err; urgent.textContent = err; }
    }

    new MutationObserver(function (records) {
      tableChanged(records);
      if (!queued) { queued = true; window.requestAnimationFrame(copy); }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
    copy();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
