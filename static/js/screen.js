/* A player's screen at a screen table (tables.views.screen): cards played and pointing
   sent with a client key, kept in an outbox until the server stores or refuses them.
   - A tap makes one action with a new key, kept in localStorage ("ft-screen-outbox",
     per link) before it is sent: a reload, a lost answer or no connection never loses it,
     and the server stores a key once, so a retry never doubles it.
   - An action is forgotten only when the answer says X-Action-Stored (stored, or stored
     before) or X-Action-Refused (a reason, shown; never retried). Anything else leaves it
     waiting: sent again when the connection comes back, at each poll, and at page load.
   - The answer (the live part) replaces #live; the focus goes back to the same id, else
     to the h1, and a notice is read out once from #announce.
   - A card tapped while another action waits is queued behind it, never instead of it. */
(function () {
  "use strict";
  var live = function () { return document.getElementById("live"); };
  var sending = false;

  function storeKey() {
    var home = live() && live().getAttribute("data-home");
    return home ? "ft-screen-outbox:" + home : null;
  }
  function readBox() {
    try { return JSON.parse(localStorage.getItem(storeKey()) || "[]"); } catch (e) { return []; }
  }
  function writeBox(box) {
    try { localStorage.setItem(storeKey(), JSON.stringify(box)); } catch (e) { /* private mode: in memory only */ }
  }
  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function swapLive(html) {
    var old = live();
    if (!old) return;
    var focused = document.activeElement && document.activeElement.id;
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector("#live");
    if (!fresh) return;
    old.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
    var again = focused && document.getElementById(focused);
    if (again) again.focus();
    else if (focused) { var h1 = fresh.querySelector("h1"); if (h1) h1.focus(); }
    var news = fresh.querySelector("[data-news]");
    var announce = document.getElementById("announce");
    if (news && announce) announce.textContent = news.textContent;
  }

  function send() {
    if (sending) return;
    var box = readBox();
    if (!box.length) return;
    var action = box[0];
    var body = new URLSearchParams();
    body.set("card", action.card);
    body.set("key", action.key);
    if (action.trick) body.set("trick", action.trick);
    sending = true;
    fetch(action.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded" },
    }).then(function (response) {
      var settled = response.headers.get("X-Action-Stored") || response.headers.get("X-Action-Refused");
      return response.text().then(function (html) {
        if (!settled) throw new Error("not settled");
        writeBox(readBox().filter(function (kept) { return kept.key !== action.key; }));
        sending = false;
        swapLive(html);
        send();
      });
    }).catch(function () {
      sending = false;
      var offline = document.getElementById("offline");
      if (offline) offline.hidden = false;
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var kind = form.getAttribute && form.getAttribute("data-action");
    if (!kind || !event.submitter) return;
    event.preventDefault();
    var trick = form.querySelector("input[name=trick]");
    var box = readBox();
    box.push({
      url: form.action,
      card: event.submitter.value,
      trick: trick ? trick.value : "",
      key: newKey(),
    });
    writeBox(box);
    send();
  });

  // The pushed channel (tables.views.live_channel): each message says the table changed,
  // and the live part is fetched as a poll would (a 304 when it was this page's own
  // change). A message that lands while a fetch is on its way asks again after it.
  var fetching = false;
  var again = false;
  function refresh() {
    if (fetching) { again = true; return; }
    document.body.dispatchEvent(new CustomEvent("poll"));
  }
  function openStream() {
    var el = live();
    var url = el && el.getAttribute("data-stream");
    if (!url || !window.EventSource) return;
    var source = new EventSource(url);
    source.onopen = function () { document.body.setAttribute("data-pushed", ""); };
    source.onmessage = refresh;
    // The browser reconnects by itself; meanwhile the page polls at the usual pace.
    source.onerror = function () { document.body.removeAttribute("data-pushed"); };
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.id === "live") fetching = true;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.elt.id !== "live") return;
    fetching = false;
    if (again) { again = false; refresh(); }
  });
  document.addEventListener("DOMContentLoaded", openStream);

  window.addEventListener("online", send);
  document.addEventListener("htmx:afterRequest", function (event) {
    var offline = document.getElementById("offline");
    if (offline && event.detail.xhr && event.detail.xhr.status) offline.hidden = true;
    send();
  });
  document.addEventListener("DOMContentLoaded", send);
})();
