/* Polling that costs nothing when nothing changed.
   A polled element carries data-etag (rendered by the server). Each poll sends it back as
   If-None-Match; the server answers 304 and the page stays exactly as it is. htmx itself
   stops polling on a 286. */
(function () {
  document.addEventListener("htmx:configRequest", function (event) {
    var tag = event.detail.elt.getAttribute("data-etag");
    if (tag) event.detail.headers["If-None-Match"] = tag;
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr.status === 304) event.detail.shouldSwap = false;
  });
})();
