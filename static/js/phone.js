/* The phone pages: reports that are never lost, buttons that never change meaning under
   a finger, and a page that says what happened in words.

   The outbox. A report (a winner tapped, a confirmation, the tricks of a game cut off)
   is written to the phone's storage (localStorage "ft-outbox") with its client key and
   its game number before it is sent, and forgotten only when the server says it is
   stored (header X-Report-Stored naming the key) or refused for a reason (a 4xx with
   X-Report-Refused: shown, never sent again). Anything else (no connection, a time-out,
   a proxy's error page, any 5xx, a 4xx without the marker, a captive portal's 200) is a
   fault: the report stays, the page says "Waiting to send: Jamal won game 3", and it is
   sent again by itself: when the connection returns, at the next poll, on the next page
   load, when the screen comes back, and on a timer backing off from 2 s to 10 s. Then
   the page says "Sent". The form names the game it answers and the server stores a
   client key once, so a report sent twice counts once, and a report sent late answers
   the question it was made on (a confirmation or a dispute of that game, never the next
   game). Without JavaScript the same forms post as plain forms.

   After a report the next game's form appears where the finger is: a second tap of a
   double tap would report the next game. So the page the server marks data-reported
   keeps its buttons locked (and its "Game k recorded" notice in view: no poll swaps it
   away) for LOCK_MS. The server refuses such a tap as well, for pages without JS. The
   same lock holds when a poll changes the question (another phone reported the game
   this one was asked about): the page then says so and moves the focus to the
   confirm-or-dispute choice.

   Every report and every poll replaces #live whole, and with it the control that had the
   focus (which falls back to <body>, the top of the page for a screen reader) and the
   notice, which a screen reader may not read out when it arrives inside new content. So
   after each swap the notice's words go to #announce, a status region outside #live that
   is never replaced, and the focus goes to the new notice, else back to the control with
   the same id, else to the page's heading. */
(function () {
  var LOCK_MS = 2000;
  var ANNOUNCE_DELAY_MS = 100;
  var SEND_TIMEOUT_MS = 15000; // as htmx's timeout on the phone pages
  var RETRY_FIRST_MS = 2000;
  var RETRY_MAX_MS = 10000;
  var SENT_SHOWN_MS = 10000;
  var KEEP_MS = 24 * 60 * 60 * 1000; // a report older than a day is nobody's game any more
  var STORE = "ft-outbox";
  var lockedUntil = 0;
  var lastFocus = { id: null, inLive: false };
  var phaseBefore = null;
  var askedBefore = null;
  var confirmBefore = null;
  var timeWasUp = false;

  function show(id, on) {
    var el = document.getElementById(id);
    if (el) el.hidden = !on;
  }
  function failed(event) {
    var verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    if (verb !== "post") show("offline", true);
  }
  function lock(live, className) {
    var fieldsets = live.querySelectorAll("form fieldset");
    fieldsets.forEach(function (set) { set.disabled = true; });
    live.classList.add(className);
    lockedUntil = performance.now() + LOCK_MS;
    setTimeout(function () {
      fieldsets.forEach(function (set) { set.disabled = false; });
      live.classList.remove(className);
    }, LOCK_MS);
  }
  function lockAfterReport() {
    var live = document.querySelector("#live[data-reported]");
    if (!live) return;
    live.removeAttribute("data-reported");
    lock(live, "just-reported");
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
    // By the time the answer arrives a tapped button is disabled and may have lost the
    // focus: keep what was seen when the request left.
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
  function noteQuestion() {
    var live = document.getElementById("live");
    var box = live && live.querySelector(".confirm-box");
    phaseBefore = words(document.querySelector("#live .phase"));
    askedBefore = live ? live.getAttribute("data-asked") : null;
    confirmBefore = box ? box.getAttribute("data-confirm-game") : null;
  }
  /* A poll changed what the buttons mean: another phone reported the game this one was
     asked about, so the same place now asks about the next game, under a new "Another
     phone says" box. Nothing can be tapped for LOCK_MS, the change is said aloud, and
     the focus goes to the confirm-or-dispute choice. */
  function questionChanged(live) {
    var asked = live.getAttribute("data-asked");
    var box = live.querySelector(".confirm-box");
    var newBox = box && box.getAttribute("data-confirm-game") !== confirmBefore;
    if (!newBox && !(askedBefore && asked && asked !== askedBefore)) return false;
    lock(live, "just-changed");
    var active = document.activeElement;
    var wasHere = !active || active === document.body || !document.body.contains(active)
      || lastFocus.inLive;
    if (newBox) {
      announce(words(box.querySelector("#confirm-says")));
      if (wasHere) box.focus();
    } else {
      announce(words(live.querySelector(".game-question")));
    }
    return true;
  }
  function afterSettle(event) {
    var live = event.target;
    if (!live || live.id !== "live") return;
    var notice = live.querySelector("[data-notice]");
    var phase = words(live.querySelector(".phase"));
    var verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    if (verb !== "post" && !notice && questionChanged(live)) {
      lastFocus = { id: null, inLive: false };
      return;
    }
    if (notice) {
      announce(words(notice));
    } else if (phaseBefore && phase && phase !== phaseBefore) {
      announce(phase);
    }
    restoreFocus(live, notice, verb === "post");
    lastFocus = { id: null, inLive: false };
  }

  // --- the outbox ------------------------------------------------------------------------

  var outbox = document.getElementById("outbox");
  var memory = []; // where reports wait when the browser gives no storage (private mode)
  var sending = null;
  var ownKey = null; // the report this page just sent: its answer may replace the page
  var retryDelay = RETRY_FIRST_MS;
  var nextTryAt = 0;
  var retryTimer = null;
  var sent = []; // labels of reports that had waited and are now stored
  var refusedNotes = [];

  function load() {
    try {
      var list = JSON.parse(localStorage.getItem(STORE) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (error) {
      return memory;
    }
  }
  function store(list) {
    var fresh = list.filter(function (entry) { return Date.now() - entry.at < KEEP_MS; });
    memory = fresh;
    try { localStorage.setItem(STORE, JSON.stringify(fresh)); } catch (error) { /* memory */ }
  }
  function forget(key) {
    store(load().filter(function (entry) { return entry.key !== key; }));
  }
  function update(key, change) {
    store(load().map(function (entry) { return entry.key === key ? change(entry) : entry; }));
  }
  /* This table's reports, oldest first: a page sends only its own table's, whose answer
     it can show. */
  function waiting() {
    var prefix = outbox.getAttribute("data-table-url");
    return load().filter(function (entry) { return entry.url.indexOf(prefix) === 0; });
  }
  function text(name, values) {
    var template = words(outbox.querySelector('[data-words="' + name + '"]'));
    return template.replace(/\{(\w+)\}/g, function (all, key) {
      return key in values ? values[key] : all;
    });
  }
  function field(fields, name) {
    for (var i = 0; i < fields.length; i++) if (fields[i][0] === name) return fields[i][1];
    return null;
  }
  function describe(form, submitter, fields) {
    var number = field(fields, "game_number");
    if (submitter && submitter.name === "winner") {
      var name = submitter.getAttribute("data-name") || words(submitter);
      return text("won", { name: name, number: number });
    }
    var counts = [];
    form.querySelectorAll(".trick-row").forEach(function (row) {
      var input = row.querySelector("input");
      var count = input ? input.value.trim() : "";
      if (count) counts.push(words(row.querySelector("label")) + " " + count);
    });
    return text("tricks", { number: number, tricks: counts.join(", ") });
  }

  function render() {
    var list = outbox.querySelector(".outbox-list");
    var shown = waiting().filter(function (entry) { return entry.shown; });
    list.textContent = "";
    function line(kind, sentence) {
      var item = document.createElement("li");
      item.className = "notice notice-" + kind;
      item.textContent = sentence;
      list.appendChild(item);
    }
    shown.forEach(function (entry) { line("warning", text("waiting", { report: entry.label })); });
    refusedNotes.forEach(function (note) { line("error", note); });
    sent.forEach(function (label) { line("good", text("sent", { report: label })); });
    outbox.querySelector(".outbox-how").hidden = shown.length === 0;
    outbox.hidden = list.children.length === 0;
  }
  function say(words) {
    render();
    announce(words);
  }

  function post(entry) {
    var controller = window.AbortController ? new AbortController() : null;
    var timer = setTimeout(function () { if (controller) controller.abort(); }, SEND_TIMEOUT_MS);
    var body = new URLSearchParams();
    entry.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    return fetch(entry.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      // The server answers as to htmx: the table's live part, with its notice.
      headers: { "HX-Request": "true", "HX-Current-URL": location.href },
      signal: controller ? controller.signal : undefined,
    }).then(function (response) {
      return response.text().then(function (html) {
        var kind = "fault";
        if (response.ok && response.headers.get("X-Report-Stored") === entry.key) {
          kind = "stored";
        } else if (response.status >= 400 && response.status < 500
                   && response.headers.get("X-Report-Refused")) {
          kind = "refused";
        }
        return { kind: kind, html: html, reload: response.headers.get("HX-Refresh") === "true" };
      });
    }).catch(function () {
      return { kind: "fault" }; // no answer, or an answer cut off on its way
    }).then(function (answer) {
      clearTimeout(timer);
      return answer;
    });
  }

  /* The answer's #live in place of the page's: the table's live part after a report, or
     the tricks page shown again with why its tricks were refused. A report sent again in
     the background never replaces a tricks form being filled in. */
  function showAnswer(entry, html) {
    var live = document.getElementById("live");
    var holder = document.createElement("template");
    holder.innerHTML = html || "";
    var incoming = holder.content.querySelector("#live");
    if (!live || !incoming) return false;
    var sameScreen = live.getAttribute("data-screen") === incoming.getAttribute("data-screen");
    if (!sameScreen && entry.key !== ownKey) return false;
    if (window.htmx && live.hasAttribute("hx-get")) htmx.trigger(live, "htmx:abort");
    noteFocus(true);
    noteQuestion();
    if (incoming.getAttribute("data-screen") === "table" && !sameScreen) {
      history.replaceState(null, "", outbox.getAttribute("data-table-url"));
    }
    htmx.swap(live, incoming.outerHTML, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 },
      { eventInfo: { requestConfig: { verb: "post" } } });
    return true;
  }
  function release(entry) {
    if (entry.key !== ownKey) return;
    document.querySelectorAll("form[data-report] fieldset, form[data-report] button").forEach(
      function (el) { el.disabled = false; });
  }

  function answered(entry, answer) {
    sending = null;
    if (answer.kind === "fault") {
      update(entry.key, function (kept) { kept.shown = true; return kept; });
      release(entry);
      var wait = retryDelay;
      retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
      nextTryAt = Date.now() + wait;
      clearTimeout(retryTimer);
      retryTimer = setTimeout(function () { flush(false); }, wait);
      if (!entry.shown) say(text("waiting", { report: entry.label }));
      else render();
      return;
    }
    forget(entry.key);
    retryDelay = RETRY_FIRST_MS;
    if (answer.kind === "refused" && answer.reload) {
      location.reload(); // the table's link changed: the page says what to do
      return;
    }
    var swapped = showAnswer(entry, answer.html);
    if (!swapped) release(entry);
    if (answer.kind === "stored" && entry.shown) {
      sent = [entry.label];
      setTimeout(function () { sent = []; render(); }, SENT_SHOWN_MS);
      if (swapped) render(); else say(text("sent", { report: entry.label }));
    } else if (answer.kind === "refused" && !swapped) {
      var holder = document.createElement("template");
      holder.innerHTML = answer.html || "";
      var reason = words(holder.content.querySelector(".notice-error, [data-notice]"));
      refusedNotes.push((text("refused", { report: entry.label }) + " " + reason).trim());
      say(refusedNotes[refusedNotes.length - 1]);
    } else {
      render();
    }
    flush(true); // the next report waiting, if any
  }

  function flush(now) {
    if (!outbox || sending) return;
    if (!now && Date.now() < nextTryAt) return;
    var entry = waiting()[0];
    if (!entry) return;
    sending = entry;
    var live = document.getElementById("live");
    // A poll on its way would bring the page as it was before this report.
    if (window.htmx && live && live.hasAttribute("hx-get")) htmx.trigger(live, "htmx:abort");
    post(entry).then(function (answer) { answered(entry, answer); });
  }
  function retryNow() {
    retryDelay = RETRY_FIRST_MS;
    nextTryAt = 0;
    flush(true);
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!outbox || !form.matches || !form.matches("form[data-report]")) return;
    event.preventDefault();
    var submitter = event.submitter || null;
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    if (submitter && submitter.name) fields.push([submitter.name, submitter.value]);
    var entry = {
      key: field(fields, "client_key"),
      url: form.getAttribute("action"),
      fields: fields,
      round: field(fields, "round_number"),
      game: field(fields, "game_number"),
      label: describe(form, submitter, fields),
      at: Date.now(),
      shown: false,
    };
    // A report of the same game still waiting: this tap replaces it and keeps its key,
    // so whichever reaches the server first is the one stored, once.
    var list = load().filter(function (kept) {
      var same = kept.url === entry.url && kept.round === entry.round && kept.game === entry.game;
      if (same && kept !== sending && !(sending && sending.key === kept.key)) {
        entry.key = kept.key;
        entry.shown = kept.shown;
        fields.forEach(function (pair) { if (pair[0] === "client_key") pair[1] = kept.key; });
        return false;
      }
      return true;
    });
    list.push(entry);
    store(list);
    ownKey = entry.key;
    refusedNotes = [];
    sent = [];
    render();
    form.querySelectorAll("fieldset, button").forEach(function (el) { el.disabled = true; });
    retryNow();
  });

  if (outbox) {
    window.addEventListener("online", retryNow);
    window.addEventListener("pageshow", retryNow);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") retryNow();
    });
    render();
    retryNow();
  }

  // --- htmx: polls and swaps -------------------------------------------------------------

  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful || (event.detail.xhr && event.detail.xhr.status === 304)) {
      show("offline", false);
      flush(false); // the server answers again: a report waiting goes now
    }
  });
  document.addEventListener("htmx:load", lockAfterReport);
  document.addEventListener("htmx:beforeRequest", function (event) {
    var polling = event.detail.elt.id === "live";
    if (polling && (sending || performance.now() < lockedUntil)) {
      event.preventDefault(); // a poll now would take the notice or the report away
      return;
    }
    noteFocus(false);
  });
  document.addEventListener("htmx:beforeSwap", function () {
    noteFocus(true);
    noteQuestion();
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
