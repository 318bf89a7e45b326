/* Polling that costs nothing when nothing changed, and nothing while nobody looks.
   - Every POLL_SECONDS, while the page is visible, <body> gets a "poll" event; a polled
     element listens with hx-trigger="poll from:body" (tournament.common.polling). A page
     shown again (a phone woken, a tab brought back) polls at once. This replaces htmx's
     "every 2s [document.visibilityState === 'visible']": its filter is evaluated
     JavaScript, which the Content-Security-Policy forbids.
   - A polled element carries data-etag (rendered by the server). Each poll sends it back
     as If-None-Match; the server answers 304 and the page stays exactly as it is.
   - A 286 answer (stop polling) carries an element without hx-trigger: polling ends there.
   - A page whose pushed channel is open (<body data-pushed>, set by screen.js) polls only
     every PUSHED_EVERY-th tick: the channel says when something changed. */
(function () {
  var POLL_SECONDS = 0.5; // tournament.common.polling.POLL_INTERVAL_SECONDS
  var POLL_EVENT = "poll";
  var PUSHED_EVERY = 20;
  var ticks = 0;

  function poll() {
    ticks = (ticks + 1) % PUSHED_EVERY;
    if (document.body && document.body.hasAttribute("data-pushed") && ticks !== 0) return;
    if (document.visibilityState === "visible" && document.body) {
      document.body.dispatchEvent(new CustomEvent(POLL_EVENT));
    }
  }

  setInterval(poll, POLL_SECONDS * 1000);
  document.addEventListener("visibilitychange", poll);

  document.addEventListener("htmx:configRequest", function (event) {
    var tag = event.detail.elt.getAttribute("data-etag");
    if (tag) {
      event.detail.headers["If-None-Match"] = tag;
      // A page left in another language is reloaded whole (PageLanguageMiddleware).
      event.detail.headers["X-Page-Language"] = document.documentElement.lang;
    }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr.status === 304) event.detail.shouldSwap = false;
  });
})();
