/* Countdown shown from the server's clock. An element [data-clock-seconds] holds the
   seconds left when it was rendered (and data-clock-paused if paused); the browser counts
   down from there with its own monotonic clock, so device clocks that are wrong do not
   matter. At zero the element, and <body>, get the class "time-up". */
(function () {
  function format(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var m = Math.floor(s / 60);
    var r = s % 60;
    return m + ":" + (r < 10 ? "0" : "") + r;
  }
  function tick() {
    var now = performance.now();
    var anyUp = false;
    document.querySelectorAll("[data-clock-seconds]").forEach(function (el) {
      if (!el._clockStart) {
        el._clockStart = now;
        el._clockSeconds = parseFloat(el.getAttribute("data-clock-seconds"));
      }
      var paused = el.hasAttribute("data-clock-paused");
      var left = paused ? el._clockSeconds : el._clockSeconds - (now - el._clockStart) / 1000;
      var text = format(left);
      var out = el.querySelector("[data-clock-text]") || el;
      if (out.textContent !== text) out.textContent = text;
      var up = left <= 0;
      el.classList.toggle("time-up", up);
      anyUp = anyUp || up;
    });
    document.body.classList.toggle("time-up", anyUp);
  }
  setInterval(tick, 250);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
})();
