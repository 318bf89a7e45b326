/* Bad Wi-Fi on the phone pages: say so instead of failing silently. A report that could
   not be sent can simply be tapped again, because the form keeps its key and the server
   stores a key once. */
(function () {
  function show(id, on) {
    var el = document.getElementById(id);
    if (el) el.hidden = !on;
  }
  function failed(event) {
    var verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    show(verb === "post" ? "not-sent" : "offline", true);
  }
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful || (event.detail.xhr && event.detail.xhr.status === 304)) {
      show("offline", false);
      show("not-sent", false);
    }
  });
})();
