/* Bad Wi-Fi on the phone pages: say so instead of failing silently. A report that could
   not be sent can simply be tapped again, because the form keeps its key and the server
   stores a key once.

   After a report the next game's form appears where the finger is: a second tap of a
   double tap would report the next game. So the page the server marks data-reported
   keeps its buttons locked (and its "Game k recorded" notice in view: no poll swaps it
   away) for LOCK_MS. The server refuses such a tap as well, for pages without JS. */
(function () {
  var LOCK_MS = 2000;
  var lockedUntil = 0;

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
    }
  });
})();
