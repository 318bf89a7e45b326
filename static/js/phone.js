/* Phone pages: a table's reports in the outbox (static/js/outbox.js: kept in localStorage
   until stored or refused, sent again by itself), the locks after a report or a changed
   question, and the focus and read-out after each swap. Why each works as it does:
   docs/ARCHITECTURE.md, "One report" (the page weighs against its 30 KB budget,
   tests/tables/test_phone_weight.py). */
(function () {
  var LOCK_MS = 2000;
  var ANNOUNCE_DELAY_MS = 100;
  var RETRY_FIRST_MS = 2000;
  var RETRY_MAX_MS = 10000;
  var SENT_SHOWN_MS = 10000;
  var KEEP_MS = 24 * 60 * 60 * 1000;
  // tables.writes.second_taps.RETAP_WINDOW (a test keeps them equal): the same name for the
  // next game this soon after the last report's answer is asked about before it counts.
  var RETAP_MS = 30000;
  var RECENT = "ft-recent"; // per table: the last report this phone saw stored
  var lockedUntil = 0;
  var asking = null; // a quick retap waiting for the player's answer: { entry, form }
  var lastFocus = { id: null, inLive: false };
  var phaseBefore = null;
  var roomBefore = null; // what the room's screen shows on a player's own screen
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
      // Still asked "Another game?": the buttons wait for that answer.
      fieldsets.forEach(function (set) { set.disabled = Boolean(asking); });
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
    // Emptied, then filled: the same words twice are still read out twice.
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
    // A tapped button may have lost the focus by now: keep what was seen before.
    if (lost && keepIfLost) return;
    var inLive = !lost && live.contains(active);
    lastFocus = { id: inLive ? active.id || null : null, inLive: inLive };
  }
  function focusable(el) {
    return el && !el.disabled && el.getClientRects().length > 0;
  }
  function restoreFocus(live, notice, reported) {
    if (asking) return; // "Another game?" keeps the focus until it is answered
    var active = document.activeElement;
    var lost = !active || active === document.body || !document.body.contains(active);
    if (!reported && !(lost && lastFocus.inLive)) return;
    var same = lastFocus.id && document.getElementById(lastFocus.id);
    // Refused tricks: the first field at fault, which names the problem (aria-describedby).
    var invalid = live.querySelector("[aria-invalid=true]");
    var target = invalid || notice || (focusable(same) ? same : live.querySelector("h1"));
    if (target && target !== active) target.focus();
  }
  function noteQuestion() {
    var live = document.getElementById("live");
    var box = live && live.querySelector(".confirm-box");
    phaseBefore = words(document.querySelector("#live .phase"));
    roomBefore = words(document.querySelector("#live [data-room-title]"));
    askedBefore = live ? live.getAttribute("data-asked") : null;
    confirmBefore = box ? box.getAttribute("data-confirm-game") : null;
  }
  // A poll changed what the buttons mean (another phone reported the asked game).
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
      if (wasHere && !asking) box.focus(); // an open "Another game?" keeps the focus
    } else {
      announce(words(live.querySelector(".game-question")));
    }
    return true;
  }
  function afterSettle(event) {
    var live = event.target;
    if (!live || live.id !== "live") return;
    if (outbox) render();
    if (asking) {
      // "Another game?" keeps the buttons and the focus (a notice's autofocus took it).
      disableReports(true);
      var box = document.getElementById("retap-ask");
      if (box && !box.contains(document.activeElement)) box.focus();
    }
    var answerNotice = live.querySelector("[data-answer-notice]");
    if (answerNotice) {
      announce(words(answerNotice));
      var same = lastFocus.id && document.getElementById(lastFocus.id);
      if (focusable(same) && !asking) same.focus();
      lastFocus = { id: null, inLive: false };
      return;
    }
    var notice = live.querySelector("[data-notice]");
    var phase = words(live.querySelector(".phase"));
    var room = words(live.querySelector("[data-room-title]"));
    var verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    if (verb !== "post" && !notice && questionChanged(live)) {
      lastFocus = { id: null, inLive: false };
      return;
    }
    if (notice) {
      announce(words(notice));
    } else if (phaseBefore && phase && phase !== phaseBefore) {
      announce(phase);
    } else if (room && roomBefore !== null && room !== roomBefore) {
      // The organizer stepped the debrief: its new screen's heading (phone/_room_screen.html).
      announce(room);
    }
    restoreFocus(live, notice, verb === "post");
    lastFocus = { id: null, inLive: false };
  }


  var outbox = document.getElementById("outbox");
  var ownKey = null; // the report tapped on this page: its answer replaces the page
  var sent = []; // reports that had waited, now stored
  var refusedNotes = [];
  // The reports of every table this phone reported at, one outbox ("ft-outbox").
  var reports = outbox && window.ftOutbox.create({
    name: "ft-outbox",
    keepMs: KEEP_MS,
    retryMs: RETRY_FIRST_MS,
    retryMaxMs: RETRY_MAX_MS,
    // This table's reports: a page sends only those.
    select: function (entry) {
      return entry.url.indexOf(outbox.getAttribute("data-table-url")) === 0;
    },
    // Answers (tables.views.report_answers): stored with its own key, or refused.
    stored: function (response, entry) {
      return response.ok && response.headers.get("X-Report-Stored") === entry.key;
    },
    refused: function (response) {
      return response.status >= 400 && response.status < 500
        && Boolean(response.headers.get("X-Report-Refused"));
    },
    sending: function () {
      // A poll on its way would bring the page as it was before.
      var live = document.getElementById("live");
      if (window.htmx && live && live.hasAttribute("hx-get")) htmx.trigger(live, "htmx:abort");
    },
    answered: answered,
  });
  function recent() {
    try { return JSON.parse(localStorage.getItem(RECENT) || "{}") || {}; } catch (e) { return {}; }
  }
  function noteStored(entry) {
    var all = recent();
    all[entry.url] = { round: entry.round, game: entry.game,
      winner: field(entry.fields, "winner"), at: Date.now() };
    try { localStorage.setItem(RECENT, JSON.stringify(all)); } catch (error) { /* none */ }
  }
  // A quick retap (tables.writes.reporting): the same name for the game after this phone's
  // last report here, while that one waits or within RETAP_MS of its answer.
  function quickRetap(entry) {
    var winner = field(entry.fields, "winner");
    var last = recent()[entry.url];
    if (last && last.round !== entry.round) last = null;
    reports.waiting().forEach(function (e) {
      if (e.url === entry.url && e.round === entry.round && (!last || +e.game >= +last.game)) {
        last = { game: e.game, winner: field(e.fields, "winner"), at: e.at };
      }
    });
    return Boolean(last && winner && last.winner === winner && +entry.game === +last.game + 1
      && Date.now() - last.at < RETAP_MS);
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
    var pending = reports.waiting();
    list.textContent = "";
    function line(kind, sentence) {
      var item = document.createElement("li");
      item.className = "notice notice-" + kind;
      item.textContent = sentence;
      list.appendChild(item);
    }
    // On its way until its first try fails; then waiting, sent again by itself.
    pending.forEach(function (entry) {
      line(entry.shown ? "warning" : "good", text(entry.shown ? "waiting" : "sending",
        { report: entry.label }));
    });
    refusedNotes.forEach(function (note) { line("error", note); });
    sent.forEach(function (label) { line("good", text("sent", { report: label })); });
    outbox.querySelector(".outbox-how").hidden = !pending.some(function (e) { return e.shown; });
    outbox.hidden = list.children.length === 0;
    advance();
  }

  // The reports this phone made at this table are ahead of the page it shows (waiting to
  // be sent, or sent with no answer yet): the form asks about the game after them, with a
  // new key, and a confirm box for one of them goes (that report confirms or disputes it).
  function advance() {
    var live = document.getElementById("live");
    var form = live && live.querySelector("form.report");
    if (!form) return;
    var round = form.querySelector("[name=round_number]").value;
    var games = reports.waiting().filter(function (e) { return e.round === round; })
      .map(function (e) { return +e.game; });
    var box = live.querySelector(".confirm-box[data-confirm-game]");
    if (box && games.some(function (n) { return round + "." + n === box.getAttribute("data-confirm-game"); })) {
      box.hidden = true;
    }
    var top = Math.max.apply(null, [0].concat(games));
    var game = form.querySelector("[name=game_number]");
    // A game chosen to contest keeps its number ("Back to game k" is then shown).
    if (live.querySelector("#back-to-next") || +game.value > top) return;
    game.value = top + 1;
    form.querySelector("[name=client_key]").value = window.ftOutbox.newKey();
    form.querySelector(".game-question").textContent = text("question", { number: top + 1 });
    live.setAttribute("data-asked", round + "." + (top + 1));
  }
  function say(words) {
    render();
    announce(words);
  }

  // The answer's #live in place of the page's, unless a report sent in the background
  // would take a tricks form away.
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
    if ((entry && entry.key !== ownKey) || asking) return;
    document.querySelectorAll("form[data-report] fieldset, form[data-report] button").forEach(
      function (el) { el.disabled = false; });
  }

  // What the outbox heard of a report (static/js/outbox.js: stored, refused, or kept).
  function answered(entry, answer) {
    if (answer.kind === "fault" || answer.kind === "busy") {
      // Every report behind it waits too; the buttons take the next game meanwhile.
      reports.save(reports.all().map(function (kept) { kept.shown = true; return kept; }));
      release();
      if (!entry.shown) say(text("waiting", { report: entry.label }));
      else render();
      return;
    }
    if (answer.kind === "stored") noteStored(entry);
    if (answer.kind === "refused" && answer.response.headers.get("HX-Refresh") === "true") {
      location.reload(); // the link changed: the 404 page says what to do
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
  }

  // A report joins the outbox, never replacing one there: the same report again (a
  // retap of the same game and result) is that report; anything else queues behind it.
  function queue(entry, form) {
    var result = JSON.stringify(entry.fields.filter(function (pair) {
      return pair[0] !== "client_key" && pair[0] !== "retap_checked";
    }));
    var same = reports.all().filter(function (kept) {
      return kept.url === entry.url && kept.result === result;
    })[0];
    entry.result = result;
    if (!same) reports.add(entry);
    // A key is one report (tables.writes.reporting refuses it with another): the form's
    // next tap gets its own, though a contested game's form keeps asking the same game.
    var key = form.querySelector("[name=client_key]");
    if (key) key.value = window.ftOutbox.newKey();
    ownKey = (same || entry).key;
    refusedNotes = [];
    sent = [];
    say(text("sending", { report: entry.label }));
    form.querySelectorAll("fieldset, button").forEach(function (el) { el.disabled = true; });
    reports.retryNow();
  }

  function ask(entry, form) {
    asking = { entry: entry, form: form };
    var box = document.getElementById("retap-ask") || document.createElement("div");
    box.id = "retap-ask";
    box.className = "confirm-box ask-box";
    box.setAttribute("role", "group");
    box.setAttribute("tabindex", "-1");
    box.textContent = "";
    var says = document.createElement("p");
    says.textContent = text("ask", { name: entry.name, earlier: +entry.game - 1 });
    box.appendChild(says);
    [["ask-yes", "good", true], ["ask-no", "secondary", false]].forEach(function (b) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = b[1];
      button.textContent = text(b[0], { number: entry.game });
      button.addEventListener("click", function () { answerAsk(b[2]); });
      box.appendChild(button);
    });
    var live = document.getElementById("live");
    live.parentNode.insertBefore(box, live);
    box.scrollIntoView({ block: "nearest" });
    box.focus();
    announce(says.textContent);
    disableReports(true);
  }
  function disableReports(on) {
    document.querySelectorAll("#live form[data-report] fieldset").forEach(function (set) {
      set.disabled = on;
    });
  }
  function answerAsk(yes) {
    var pending = asking;
    asking = null;
    var box = document.getElementById("retap-ask");
    if (box) box.remove();
    disableReports(false);
    if (!pending) return;
    if (yes) {
      pending.entry.fields.push(["retap_checked", "on"]);
      queue(pending.entry, pending.form);
    } else {
      announce(text("refused", { report: pending.entry.label }));
    }
    var question = document.querySelector("#live .game-question");
    if (question) question.setAttribute("tabindex", "-1");
    if (question && !yes) question.focus();
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!outbox || !form.matches || !form.matches("form[data-report]")) return;
    event.preventDefault();
    if (asking) return;
    var submitter = event.submitter || null;
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    if (submitter && submitter.name) fields.push([submitter.name, submitter.value]);
    var checked = field(fields, "retap_checked");
    var entry = {
      key: field(fields, "client_key"),
      url: form.getAttribute("action"),
      fields: fields,
      round: field(fields, "round_number"),
      game: field(fields, "game_number"),
      label: describe(form, submitter, fields),
      name: submitter && submitter.getAttribute("data-name"),
      at: Date.now(),
      shown: false,
    };
    // Only the next game's form: a confirmation or a contested game is no retap.
    var next = form.matches(".report") && !document.getElementById("back-to-next");
    if (!checked && next && quickRetap(entry)) {
      ask(entry, form);
      return;
    }
    // Asked here, or no retap: the server need not ask again (tables.writes.reporting).
    if (!checked) fields.push(["retap_checked", "on"]);
    queue(entry, form);
  });

  if (outbox) {
    window.addEventListener("online", reports.retryNow);
    window.addEventListener("pageshow", reports.retryNow);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") reports.retryNow();
    });
    render();
    reports.retryNow();
  }


  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful || (event.detail.xhr && event.detail.xhr.status === 304)) {
      show("offline", false);
      if (reports) reports.send(false);
    }
  });
  document.addEventListener("htmx:load", lockAfterReport);
  document.addEventListener("htmx:beforeRequest", function (event) {
    var polling = event.detail.elt.id === "live";
    if (polling && ((reports && reports.sending()) || performance.now() < lockedUntil)) {
      event.preventDefault(); // it would take the notice or the report away
      return;
    }
    noteFocus(false);
  });
  document.addEventListener("htmx:beforeSwap", function () {
    noteFocus(true);
    noteQuestion();
  });
  document.addEventListener("htmx:afterSettle", afterSettle);

  // clock.js marks <body> at 0:00; its note is only shown by CSS: say it.
  new MutationObserver(function () {
    var up = document.body.classList.contains("time-up");
    if (up && !timeWasUp) announce(words(document.querySelector("#live .time-up-note")));
    timeWasUp = up;
  }).observe(document.body, { attributes: true, attributeFilter: ["class"] });
})();
