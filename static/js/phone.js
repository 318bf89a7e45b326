/* Bad Wi-Fi on the phone pages: say so instead of failing silently. A report that could
   not be sent can simply be tapped again, because the form keeps its key and the server
   stores a key once.

   After a report the next game's form appears where the finger is: a second tap of a
   double tap would report the next game. So the page the server marks data-reported
   keeps its buttons locked (and its "Game k recorded" notice in view: no poll swaps it
   away) for LOCK_MS. The server refuses such a tap as well, for pages without JS.

   Every report and every poll replaces #live whole, and with it the control that had the
   focus (which falls back to <body>, the top of the page for a screen reader) and the
   notice, which a screen reader may not read out when it arrives inside new content. So
   after each swap the notice's words go to #announce, a status region outside #live that
   is never replaced, and the focus goes to the new notice, else back to the control with
   the same id, else to the page's heading. */
(function () {
  var LOCK_MS = 2000;
  var ANNOUNCE_DELAY_MS = 100;
  var lockedUntil = 0;
  var lastFocus = { id: null, inLive: false };
  var phaseBefore = null;
  var timeWasUp = false;

  function show(id, on) {
    var el = document.getElementById(id);
    if (el) el.hidden = !on;
  }
  function failed(event) {
    var verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    show(verb === "post" ? "not-sent" : "offline", true);
  }
  function lockAfterReport() {
    var live = document.querySelector("#live[data-reported]");
    if (!live) return;
    live.removeAttribute("data-reported");
    var fieldsets = live.querySelectorAll("form fieldset");
    fieldsets.forEach(function (set) { set.disabled = true; });
    live.classList.add("just-reported");
    lockedUntil = performance.now() + LOCK_MS;
    setTimeout(function () {
      fieldsets.forEach(function (set) { set.disabled = false; });
      live.classList.remove("just-reported");
    }, LOCK_MS);
  }

  function announce(text) {
    var region = document.getElementById("announce");
    if (!region || !text) return;
    // Emptied first and filled a moment later: the same words twice in a row (two
    // reports alike) are still read out twice.
    region.textContent = "";
    setTimeout(function () { region.textContent = text; }, ANNOUNCE_DELAY_MS);
  }
  function words(el) {
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }
  function noteFocus(keepIfLost) {
    var live = document.getElementById("live");
    var active = document.activeElement;
    var lost = !live || !active || active === document.body;
    // By the time the answer arrives a tapped button is disabled (hx-disabled-elt) and
    // may have lost the focus: keep what was seen when the request left.
    if (lost && keepIfLost) return;
    var inLive = !lost && live.contains(active);
    lastFocus = { id: inLive ? active.id || null : null, inLive: inLive };
  }
  function focusable(el) {
    return el && !el.disabled && el.getClientRects().length > 0;
  }
  function restoreFocus(live, notice, reported) {
    var active = document.activeElement;
    var lost = !active || active === document.body || !document.body.contains(active);
    if (!reported && !(lost && lastFocus.inLive)) return;
    var same = lastFocus.id && document.getElementById(lastFocus.id);
    var target = notice || (focusable(same) ? same : live.querySelector("h1"));
    if (target && target !== active) target.focus();
  }
  function afterSettle(event) {
    var live = event.target;
    if (!live || live.id !== "live") return;
    var notice = live.querySelector("[data-notice]");
    var phase = words(live.querySelector(".phase"));
    if (notice) {
      announce(words(notice));
    } else if (phaseBefore && phase && phase !== phaseBefore) {
      announce(phase);
    }
    var verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    restoreFocus(live, notice, verb === "post");
    lastFocus = { id: null, inLive: false };
  }

  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful || (event.detail.xhr && event.detail.xhr.status === 304)) {
      show("offline", false);
      show("not-sent", false);
    }
  });
  document.addEventListener("htmx:load", lockAfterReport);
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.id === "live" && performance.now() < lockedUntil) {
      event.preventDefault(); // a poll now would take the notice away: skip this one
      return;
    }
    noteFocus(false);
  });
  document.addEventListener("htmx:beforeSwap", function () {
    noteFocus(true);
    phaseBefore = words(document.querySelector("#live .phase"));
  });
  document.addEventListener("htmx:afterSettle", afterSettle);

  // clock.js marks <body> the moment the countdown reaches 0:00; the note it reveals is
  // only shown by CSS, which a screen reader does not hear.
  new MutationObserver(function () {
    var up = document.body.classList.contains("time-up");
    if (up && !timeWasUp) announce(words(document.querySelector("#live .time-up-note")));
    timeWasUp = up;
  }).observe(document.body, { attributes: true, attributeFilter: ["class"] });
})();
