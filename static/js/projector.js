/* The projector page: the server's sizes for each board, paging through boards that do
   not fit on one screen, keeping every name whole, the full-screen button, hiding the idle
   mouse pointer, keeping the screen awake, and a note when the server cannot be reached.
   Without JavaScript every page is shown. */
(function () {
  var PAGE_SECONDS = 8;
  var IDLE_SECONDS = 3;
  var FIT_STEP = 0.94;
  var FIT_TRIES = 10;
  var root = document.documentElement;
  root.classList.add("js");

  // A board's sizes come from the server as data-vars="--columns: 3; --lines: 18; ...":
  // set through the CSSOM, which the Content-Security-Policy allows, where a style
  // attribute in the markup would be refused.
  function applyVars() {
    document.querySelectorAll("[data-vars]").forEach(function (el) {
      el.getAttribute("data-vars").split(";").forEach(function (pair) {
        var colon = pair.indexOf(":");
        var name = pair.slice(0, colon).trim();
        if (colon > 0 && name.indexOf("--") === 0) {
          el.style.setProperty(name, pair.slice(colon + 1).trim());
        }
      });
    });
  }
  applyVars(); // this script comes after the stage: before the first paint

  // One counter for the whole page, so a board swapped in by a poll keeps its place.
  var turn = 0;
  function showPages() {
    applyVars();
    document.querySelectorAll("[data-pages]").forEach(function (board) {
      var pages = board.querySelectorAll("[data-page]");
      if (!pages.length) return;
      var current = turn % pages.length;
      pages.forEach(function (page, index) {
        page.classList.toggle("is-current", index === current);
      });
      var stage = board.closest("main") || document;
      var number = stage.querySelector("[data-pager-number]");
      var label = stage.querySelector("[data-pager-label]");
      if (number) number.textContent = String(current + 1);
      if (label) label.textContent = pages[current].getAttribute("data-label") || "";
    });
    document.querySelectorAll(".board").forEach(fitNames);
  }

  // The server leaves each name room for a plain face; a projector whose face is wider
  // still would cut names or push rows off the board. Smaller letters instead.
  function spills(board) {
    var page = board.querySelector("[data-page].is-current") || board.querySelector("[data-page]");
    if (!page) return false;
    var bottom = board.getBoundingClientRect().bottom + 1;
    var rows = page.querySelectorAll(".row");
    for (var i = 0; i < rows.length; i++) {
      var name = rows[i].querySelector(".name");
      if (rows[i].getBoundingClientRect().bottom > bottom) return true;
      if (name && name.scrollWidth > name.clientWidth + 1) return true;
    }
    return false;
  }
  function fitNames(board) {
    board.style.removeProperty("--fit");
    var scale = 1;
    for (var tries = 0; tries < FIT_TRIES && spills(board); tries++) {
      scale *= FIT_STEP;
      board.style.setProperty("--fit", String(scale));
    }
  }
  setInterval(function () {
    turn += 1;
    showPages();
  }, PAGE_SECONDS * 1000);
  // afterSwap runs before the browser paints the new content: no flash of page 1.
  document.addEventListener("htmx:afterSwap", showPages);
  document.addEventListener("DOMContentLoaded", showPages);
  window.addEventListener("resize", showPages);

  // Full screen: on the projector's display, from a button that then gets out of the way.
  var button = document.querySelector("[data-fullscreen]");
  function syncButton() {
    if (button) button.hidden = !root.requestFullscreen || !!document.fullscreenElement;
  }
  if (button) {
    button.addEventListener("click", function () {
      root.requestFullscreen().catch(function () {});
    });
    document.addEventListener("fullscreenchange", syncButton);
    syncButton();
  }

  // Hide the pointer and the tools while the mouse rests.
  var idleTimer;
  function wake() {
    document.body.classList.remove("is-idle");
    clearTimeout(idleTimer);
    idleTimer = setTimeout(function () {
      document.body.classList.add("is-idle");
    }, IDLE_SECONDS * 1000);
  }
  ["mousemove", "mousedown", "keydown", "touchstart"].forEach(function (name) {
    document.addEventListener(name, wake, { passive: true });
  });
  document.addEventListener("DOMContentLoaded", wake);

  // Keep the display from sleeping mid-round (where the browser allows it).
  function keepAwake() {
    if (navigator.wakeLock && document.visibilityState === "visible") {
      navigator.wakeLock.request("screen").catch(function () {});
    }
  }
  document.addEventListener("visibilitychange", keepAwake);
  keepAwake();

  // A projector must not look live when it is not: say so, and recover by itself.
  function online(ok) {
    document.body.classList.toggle("is-offline", !ok);
  }
  document.addEventListener("htmx:sendError", function () {
    online(false);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status === 404) {
      window.location.reload(); // the link stopped working: show why
    } else if (status) {
      online(status < 500);
    }
  });
})();
