/* The table's drawing pad on a player's screen (phone/_pad.html; tables.rules.silent_channel).
   - A stroke is drawn with a pointer (mouse, finger, pen) or the keyboard: the arrow keys
     move the pen (Shift: finer), Space puts it down or lifts it, Escape lifts it; a
     screen reader hears "Pen down" or "Pen up" once at each change.
   - A stroke ends when the pointer is lifted (or the pen, or the pad loses focus); it is
     then queued in the page's outbox (window.ftScreen.queue, static/js/screen.js) with
     the pad it was drawn on, and shown at once in #pad-pending until the table's strokes
     (#pad-strokes, brought by a swap, or by the live channel whenever the pad changed: a
     stroke stored changes it, so the push of its version brings it) hold it: the server's
     answer says the table's version it stored the stroke at (X-Table-Version, passed on by
     static/js/screen.js in "ft:sent"), and a table state (#table-state) of that version or
     later holds it, or a clear after it. The stroke's client key stays on this page: the
     table's strokes carry no key, so nothing a player could choose reaches another screen.
   - The pad takes no text: keys other than the pen's do nothing, and a paste or a drop
     is refused by the browser before it reaches the page.
   - Points are whole units of the pad's own box (1000 x 700), so every screen size draws
     the same lines. A long stroke is sent in parts of at most MAX_POINTS. */
(function () {
  "use strict";
  var WIDTH = 1000, HEIGHT = 700, MAX_POINTS = 400, MIN_STEP = 4;
  var KEY_STEP = 20, FINE_STEP = 5;
  var SVG = "http://www.w3.org/2000/svg";
  var ink = "black";
  try { ink = localStorage.getItem("ft-ink") || "black"; } catch (e) { /* private mode */ }
  var points = null;  // the stroke being drawn, or null
  var line = null;    // its polyline in #pad-pending
  var pen = { x: WIDTH / 2, y: HEIGHT / 2 };
  var byKeyboard = false;

  function pad() { return document.getElementById("pad"); }
  function text(list) {
    var pairs = list.map(function (p) { return p[0] + "," + p[1]; });
    if (pairs.length === 1) pairs.push(pairs[0]);
    return pairs.join(" ");
  }
  function clamp(value, most) { return Math.max(0, Math.min(most, Math.round(value))); }
  function toPad(event) {
    var box = pad().getBoundingClientRect();
    return [clamp((event.clientX - box.left) * WIDTH / box.width, WIDTH),
      clamp((event.clientY - box.top) * HEIGHT / box.height, HEIGHT)];
  }
  function drawLine(list, kind, key) {
    var pending = document.getElementById("pad-pending");
    if (!pending) return null;
    var el = document.createElementNS(SVG, "polyline");
    el.setAttribute("class", "ink ink-" + kind);
    el.setAttribute("points", text(list));
    if (key) el.setAttribute("data-pending", key);
    pending.appendChild(el);
    return el;
  }

  function start(at) {
    points = [at];
    line = drawLine(points, ink, "");
  }
  function extend(at) {
    if (!points) return;
    var last = points[points.length - 1];
    if (Math.abs(at[0] - last[0]) + Math.abs(at[1] - last[1]) < MIN_STEP) return;
    points.push(at);
    if (line) line.setAttribute("points", text(points));
    if (points.length >= MAX_POINTS) { var from = points[points.length - 1]; finish(true); start(from); }
  }
  // A stroke ends; ``split`` when a long one goes on in a new part under the same pen, so
  // the swaps that wait for the stroke's end keep waiting.
  function finish(split) {
    if (!points) return;
    var el = pad();
    var action = window.ftScreen && el && live() &&
      window.ftScreen.queue(live().dataset.drawUrl, { kind: ink, points: text(points), pad: el.dataset.pad });
    if (line && action) line.setAttribute("data-pending", action.key);
    points = null;
    line = null;
    if (!split) document.dispatchEvent(new CustomEvent("ft:stroke-end"));
  }
  function live() { return document.getElementById("live"); }

  // A stroke leaves #pad-pending once the table's state shown is at least as recent as
  // the version it was stored at (a refused one, or one stored before, at its answer);
  // strokes still waiting in the outbox are drawn again after a swap brought an empty one.
  var storedAt = {};  // client key -> the table's version it was stored at (0: none said)
  document.addEventListener("ft:sent", function (event) {
    var action = event.detail;
    if (!action || !action.fields || !("points" in action.fields)) return;
    storedAt[action.key] = Number(action.tableVersion || 0);
    settle();
  });
  function shownVersion() {
    var state = document.getElementById("table-state");
    return state ? Number(state.dataset.version || 0) : 0;
  }
  function settle() {
    var pending = document.getElementById("pad-pending");
    if (!pending) return;
    var shown = {};
    pending.querySelectorAll("[data-pending]").forEach(function (el) { shown[el.getAttribute("data-pending")] = el; });
    var version = shownVersion();
    Object.keys(storedAt).forEach(function (key) {
      if (shown[key] && storedAt[key] > version) return;
      if (shown[key]) { shown[key].remove(); delete shown[key]; }
      delete storedAt[key];
    });
    var el = pad();
    (window.ftScreen ? window.ftScreen.pending() : []).forEach(function (action) {
      var f = action.fields || {};
      if (!f.points || !el || f.pad !== el.dataset.pad || shown[action.key] || action.key in storedAt) return;
      drawLine(f.points.split(" ").map(function (p) { return p.split(",").map(Number); }), f.kind, action.key);
    });
    showPen();
    showInks();
  }
  document.addEventListener("ft:pad", settle);
  document.addEventListener("DOMContentLoaded", settle);

  function showInks() {
    document.querySelectorAll(".pad-ink").forEach(function (button) {
      button.hidden = false;
      button.setAttribute("aria-pressed", button.dataset.ink === ink ? "true" : "false");
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".pad-ink");
    if (!button) return;
    finish();
    ink = button.dataset.ink;
    try { localStorage.setItem("ft-ink", ink); } catch (e) { /* private mode */ }
    showInks();
  });

  // --- a pointer ---------------------------------------------------------------------
  document.addEventListener("pointerdown", function (event) {
    var el = event.target.closest && event.target.closest("#pad");
    if (!el || event.button > 0) return;
    event.preventDefault();
    finish();  // a second finger ends the first one's stroke: one line at a time
    byKeyboard = false;
    if (el.setPointerCapture) el.setPointerCapture(event.pointerId);
    start(toPad(event));
  });
  document.addEventListener("pointermove", function (event) {
    if (points && !byKeyboard && pad()) extend(toPad(event));
  });
  ["pointerup", "pointercancel"].forEach(function (name) {
    document.addEventListener(name, function () { if (points && !byKeyboard) finish(); });
  });

  // --- the keyboard ------------------------------------------------------------------
  function showPen() {
    var dot = document.getElementById("pad-pen");
    var el = pad();
    if (!dot || !el) return;
    dot.setAttribute("cx", pen.x);
    dot.setAttribute("cy", pen.y);
    dot.setAttribute("class", "pad-pen" + (points && byKeyboard ? " pad-pen-down" : ""));
    // The attribute, not the property: an SVG element has no ``hidden`` property, so
    // setting one changed nothing; phone.css hides whatever has the attribute.
    if (document.activeElement === el) dot.removeAttribute("hidden");
    else dot.setAttribute("hidden", "");
  }
  // A screen reader hears the keyboard's pen go down or up, once each time it does (the
  // words come from the pad, translated), in the page's announcement region.
  var penWasDown = false;
  function sayPen() {
    var down = !!(points && byKeyboard);
    var el = pad();
    var announce = document.getElementById("announce");
    if (down === penWasDown || !el) return;
    penWasDown = down;
    if (announce) announce.textContent = el.getAttribute(down ? "data-say-down" : "data-say-up") || "";
  }
  var MOVES = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  document.addEventListener("keydown", function (event) {
    if (event.target !== pad()) return;
    var move = MOVES[event.key];
    if (move) {
      event.preventDefault();
      var step = event.shiftKey ? FINE_STEP : KEY_STEP;
      pen.x = clamp(pen.x + move[0] * step, WIDTH);
      pen.y = clamp(pen.y + move[1] * step, HEIGHT);
      if (points && byKeyboard) extend([pen.x, pen.y]);
    } else if (event.key === " " || event.key === "Spacebar") {
      event.preventDefault();
      if (points && byKeyboard) finish();
      else { byKeyboard = true; start([pen.x, pen.y]); }
    } else if (event.key === "Escape" && points) {
      event.preventDefault();
      finish();
    }
    showPen();
    sayPen();
  });
  document.addEventListener("focusin", showPen);
  document.addEventListener("focusout", function (event) {
    if (event.target === pad() && points) { finish(); sayPen(); }
    setTimeout(showPen, 0);
  });

  // --- no text, ever -----------------------------------------------------------------
  ["paste", "drop", "dragover"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (event.target.closest && event.target.closest("#pad-area")) event.preventDefault();
    });
  });

  window.ftPad = { busy: function () { return points !== null; } };
})();
