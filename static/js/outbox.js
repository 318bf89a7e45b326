/* The outbox: one way for a page to send what a player taps so that it counts once, used
   by a table's phone page (static/js/phone.js: its reports) and a player's own screen
   (static/js/screen.js and pad.js: cards, pointing, claims, strokes, gestures).
   window.ftOutbox.create(options) makes one; window.ftOutbox.newKey() a key.
   - action: what one tap sends ({key, url, fields, at, and what the page keeps with it}),
     with a key of its own, made once (newKey: 128 random bits, URL-safe) and kept with
     it in the browser's storage (localStorage, under options.name; in memory only where
     the browser keeps none) before it is sent. A reload, a lost answer or no connection
     never loses it, and the server stores a key once (tables.writes.store_once), so
     sending it again never doubles it. Actions older than options.keepMs are dropped.
   - waiting: the actions this page sends (options.select: a table's own, on the phone),
     oldest first, one at a time: an action tapped while another waits goes behind it.
   - answer: what the server said of the action sent, read from its headers only
       stored   options.stored(response, action): the action is forgotten;
       refused  options.refused(response) (a 4xx with the page's refusal header): the
                page shows why, and it is forgotten, never sent again;
       busy     503 with X-Action-Busy (tournament.common.busy): kept, and sent again
                after its Retry-After;
       fault    anything else (no connection, no answer within SEND_TIMEOUT_MS, a proxy's
                or a captive portal's page, a 500): kept, and sent again by itself after
                options.retryMs, a delay doubled at each fault up to options.retryMaxMs,
                or sooner when the page says so (send(true), retryNow(): back online, a
                poll answered, the page shown again).
     options.answered(action, {kind, html, response}) tells the page each one. */
(function () {
  "use strict";
  var SEND_TIMEOUT_MS = 15000; // as htmx's

  function newKey() {
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    return btoa(String.fromCharCode.apply(null, bytes))
      .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function create(options) {
    var memory = null; // the actions, while the browser's storage takes none
    var sending = null;
    var delay = options.retryMs;
    var nextTryAt = 0;
    var timer = null;
    function all() {
      if (memory) return memory.slice();
      try {
        var list = JSON.parse(localStorage.getItem(options.name) || "[]");
        return Array.isArray(list) ? list : [];
      } catch (error) {
        memory = [];
        return [];
      }
    }
    function save(list) {
      if (options.keepMs) {
        list = list.filter(function (action) { return Date.now() - action.at < options.keepMs; });
      }
      try {
        localStorage.setItem(options.name, JSON.stringify(list));
        memory = null;
      } catch (error) {
        memory = list; // private mode, a full storage: this page still sends them
      }
    }
    function waiting() {
      return options.select ? all().filter(options.select) : all();
    }
    function add(action) {
      action.key = action.key || newKey();
      action.at = action.at || Date.now();
      save(all().concat([action]));
      return action;
    }

    function body(action) {
      var form = new URLSearchParams();
      var fields = action.fields;
      if (Array.isArray(fields)) {
        fields.forEach(function (pair) { form.append(pair[0], pair[1]); });
      } else {
        Object.keys(fields).forEach(function (field) {
          if (fields[field]) form.set(field, fields[field]);
        });
      }
      if (options.keyField) form.set(options.keyField, action.key);
      return form;
    }
    function post(action) {
      var controller = new AbortController();
      var stop = setTimeout(function () { controller.abort(); }, SEND_TIMEOUT_MS);
      return fetch(action.url, {
        method: "POST",
        body: body(action),
        credentials: "same-origin",
        headers: Object.assign({ "HX-Request": "true" }, options.headers && options.headers()),
        signal: controller.signal,
      }).then(function (response) {
        return response.text().then(function (html) {
          var kind = "fault";
          if (options.stored(response, action)) kind = "stored";
          else if (options.refused(response)) kind = "refused";
          else if (response.status === 503 && response.headers.get("X-Action-Busy")) kind = "busy";
          return { kind: kind, html: html, response: response };
        });
      }).catch(function () {
        return { kind: "fault" };
      }).then(function (answer) {
        clearTimeout(stop);
        return answer;
      });
    }

    function later(wait) {
      nextTryAt = Date.now() + wait;
      clearTimeout(timer);
      timer = setTimeout(function () { send(true); }, wait);
    }
    function answered(action, answer) {
      sending = null;
      if (answer.kind === "busy") {
        later(1000 * (Number(answer.response.headers.get("Retry-After")) || 1));
      } else if (answer.kind === "fault") {
        later(delay);
        delay = Math.min(delay * 2, options.retryMaxMs);
      } else {
        save(all().filter(function (kept) { return kept.key !== action.key; }));
        delay = options.retryMs;
      }
      if (options.answered) options.answered(action, answer);
      if (answer.kind === "stored" || answer.kind === "refused") send(true);
    }
    // The oldest waiting action, unless one is on its way, or (``now`` false) a fault's
    // or a busy server's delay is not over.
    function send(now) {
      if (sending || (!now && Date.now() < nextTryAt)) return;
      var action = waiting()[0];
      if (!action) return;
      sending = action;
      if (options.sending) options.sending(action);
      post(action).then(function (answer) { answered(action, answer); });
    }
    function retryNow() {
      delay = options.retryMs;
      nextTryAt = 0;
      send(true);
    }

    return {
      add: add,
      all: all,
      save: save,
      waiting: waiting,
      send: send,
      retryNow: retryNow,
      sending: function () { return sending; },
    };
  }

  window.ftOutbox = { create: create, newKey: newKey };
})();
