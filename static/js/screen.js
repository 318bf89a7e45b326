/* A player's screen at a screen table (tables.views.screen): cards played, pointing and
   claims (who won the game, at an event with a scoring clause) sent with a client key,
   kept in an outbox until the server stores or refuses them.
   - A tap makes one action with a new key, kept in the page's outbox (static/js/outbox.js:
     localStorage "ft-screen-outbox:<link>") before it is sent: a reload, a lost answer or
     no connection never loses it, and the server stores a key once, so a retry never
     doubles it.
   - An action is forgotten only when the answer says X-Action-Stored (stored, or stored
     before) or X-Action-Refused (a reason, shown; never retried), or the link no longer
     works (404). Anything else leaves it waiting: sent again every RETRY_MS, when the
     connection comes back, at each poll, and at page load; a server too busy to take it
     (X-Action-Busy) gets it again after its Retry-After.
   - The answer replaces the play area (#screen-play), or the live part (#live) when the
     action was refused; the focus goes back to the same id (every focusable element has
     one), else near it (restoreFocus), and a refusal's reason is read out once from
     #announce and taken away at the table's next change.
   - At each change of the table (a pushed state, an answer, a poll's live part) a screen
     reader hears what changed in one line (tableNews): another player's card, the vote
     opened, the table disagreeing, the trick taken and by whom (a game's last one too,
     named by the next deal's state), "Your turn".
   - A card tapped while another action waits is queued behind it, never instead of it.
   - Gestures and strokes on the pad (static/js/pad.js, through window.ftScreen.queue)
     travel the same outbox, each with the fields its form names (tables.views.silent_channel).
   - While a stroke is being drawn no swap replaces the pad under the pen: a swap that
     arrives then waits until the stroke ends (window.ftPad.busy, window.ftScreen.flush).
   - The same while a button of the table is pressed (a vote, a card): a swap between
     its press and its release would lose the click, so the tap would count for nothing.
   - The stream counts as open (<body data-pushed>: polls seldom) once a message or a
     beat is heard, and no longer after two beats of silence (a proxy holding its
     events) or an error; a live part's fetch still pending when the stream speaks is
     dropped and asked for again.
   - The live channel (tournament.serving.live_channel) pushes the table's public state
     ("table" events, #table-state, the same for every screen at the table): it is
     swapped in unless older than the one shown, this screen's marks are set (its seat,
     "your turn", where it points, its hand's cards enabled in its turn), and a new deal
     fetches the live part, which holds the new hand. Other messages fetch the live part
     as a poll would; a message that lands while one is fetched asks again once the new
     part listens. A fetched part whose table state is older than the one pushed since
     (same deal) is not swapped in: the live part is asked for again. The pad's strokes,
     their count and whether the round's pad is full come in the same message when the
     pad changed since the last one: only the strokes added since, when no clear came
     between (#pad-added), else the whole pad; with no change, #pad-kept names its
     version and the strokes shown stay. A screen showing another version than the
     message starts from fetches the live part. An action stored with an empty answer
     names the table's version it stored at (X-Table-Version): a screen not showing it
     within PUSH_LATE_MS fetches the live part itself, until it does. A gesture
     shows for the seconds the server says, and a screen reader hears each new one of
     another player once. */
(function () {
  "use strict";
  var live = function () { return document.getElementById("live"); };
  // A move waiting is sent again this often: the table's play waits for it.
  var RETRY_MS = 3000;

  // An answer holds the play area alone (#screen-play) or, refused, the whole live part.
  var deferred = null;
  // A press on a button of the table (mouse, finger or pen) that a swap cut in two would
  // lose its click: the tap a player saw made would count for nothing. While one is down
  // (PRESS_MS at most) swaps wait, as they wait for a stroke, and land once it ends,
  // after its click.
  var PRESS_MS = 1500;
  var pressedAt = 0;
  var heldState = null;
  function pressing() { return pressedAt > 0 && Date.now() - pressedAt < PRESS_MS; }
  function drawing() { return pressing() || !!(window.ftPad && window.ftPad.busy()); }
  function released() {
    if (!pressedAt) return;
    pressedAt = 0;
    setTimeout(afterPress, 0);  // after the press's own click
  }
  function afterPress() {
    flush();
    if (heldState !== null) { var html = heldState; heldState = null; applyState(html); }
    if (refreshAfterStroke) { refreshAfterStroke = false; refresh(); }
  }
  document.addEventListener("pointerdown", function (event) {
    if (!event.target.closest || !event.target.closest("#live button")) return;
    pressedAt = Date.now();
    setTimeout(function () { if (pressedAt && !pressing()) released(); }, PRESS_MS + 50);
  }, true);
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);
  function swapLive(html) {
    if (drawing()) { deferred = html; return; }
    var holder = document.createElement("div");
    holder.innerHTML = html;
    // A refusal brings the whole live part, with its reason at the top: that one first.
    var whole = holder.querySelector("#live");
    var part = whole ? null : holder.querySelector("#screen-play");
    var old = part ? document.getElementById("screen-play") : live();
    var fresh = part || whole;
    if (!old || !fresh) return;
    var behind = olderThanShown(fresh);
    var memo = focusMemo();
    var before = document.getElementById("table-state");
    old.replaceWith(fresh);
    if (window.htmx && !part) window.htmx.process(fresh);
    restoreFocus(memo);
    // The news first (a refusal's reason: its only reading, the notice has no alert
    // role), then what changed at the table and any gesture: one announcement.
    var news = fresh.querySelector("[data-news]");
    say([news ? news.textContent : ""].concat(tableNews(before, document.getElementById("table-state")),
      showGestures(fresh, true)));
    document.dispatchEvent(new CustomEvent("ft:pad"));
    if (behind) refresh(); // its reason stays shown; the table catches up
  }

  // Stored, with the live channel open: the answer is empty and the channel brings the
  // table's state. Meanwhile this screen shows its own action at once.
  function fieldsOf(action) {
    // Moves kept by an older page name their card, trick and deal at the top level.
    return action.fields || { card: action.card, trick: action.trick, deal: action.deal };
  }
  function shownAtOnce(action) {
    var urls = live() ? live().dataset : {};
    if (action.url === urls.claimUrl) { markPressed(".claim [data-pointers]", fieldsOf(action).winner); return; }
    if (action.url !== urls.playUrl && action.url !== urls.pointUrl) return;
    var code = fieldsOf(action).card;
    if (action.url === urls.playUrl) {
      var card = document.getElementById("card-" + code);
      var item = card && card.parentNode;
      if (item) {
        // The focus goes to the card beside it, else to the hand's heading, never to <body>.
        var next = item.nextElementSibling || item.previousElementSibling;
        var hadFocus = document.activeElement === card;
        item.remove();
        if (hadFocus) {
          var target = next ? next.querySelector("button") : document.getElementById("hand-title");
          if (target) { if (!next) target.setAttribute("tabindex", "-1"); target.focus(); }
        }
      }
      var turn = document.querySelector(".your-turn");
      if (turn) turn.hidden = true;
    } else {
      markPressed(".trick [data-pointers]", code);
    }
  }
  // The vote (a card, or a player as the game's winner) this screen just made, pressed.
  function markPressed(selector, value) {
    document.querySelectorAll(selector).forEach(function (button) {
      button.setAttribute("aria-pressed", button.value === value ? "true" : "false");
      button.removeAttribute("aria-busy");
    });
  }

  function showWaiting(waiting) {
    var note = document.getElementById("screen-waiting");
    if (note) note.hidden = !waiting;
  }

  // The page's outbox (static/js/outbox.js), per personal link.
  var box = window.ftOutbox.create({
    name: "ft-screen-outbox:" + (live() ? live().getAttribute("data-home") : ""),
    keyField: "key",
    retryMs: RETRY_MS,
    retryMaxMs: RETRY_MS,
    headers: function () {
      return document.body.hasAttribute("data-pushed") ? { "X-Screen-Pushed": "1" } : {};
    },
    stored: function (response) {
      return response.ok && Boolean(response.headers.get("X-Action-Stored"));
    },
    // A link that no longer works (404, the player removed) is refused, never retried.
    refused: function (response) {
      return response.status === 404 || (response.status >= 400 && response.status < 500 &&
        Boolean(response.headers.get("X-Action-Refused")));
    },
    answered: answered,
  });
  function answered(action, answer) {
    var kept = answer.kind === "busy" || answer.kind === "fault";
    if (kept || !box.waiting().length) showWaiting(kept);
    if (kept) {
      // Busy (tournament.common.busy): the player is told it waits; no answer at all: the
      // connection is gone, too.
      var offline = document.getElementById("offline");
      if (offline && answer.kind === "fault") offline.hidden = false;
      return;
    }
    // The table's version it was stored at (static/js/pad.js keeps a stroke's), if said.
    action.tableVersion = answer.response.headers.get("X-Table-Version");
    if (answer.html) swapLive(answer.html);
    else { shownAtOnce(action); awaitState(action.tableVersion); }
    document.dispatchEvent(new CustomEvent("ft:sent", { detail: action }));
  }
  // Moves kept by an older page (card, trick and deal at the top level) get their
  // fields, which the outbox sends.
  var kept = box.all();
  if (kept.some(function (action) { return !action.fields; })) {
    box.save(kept.map(function (action) { action.fields = fieldsOf(action); return action; }));
  }
  function send() { box.send(true); }

  function queue(url, fields) {
    var action = box.add({ url: url, fields: fields });
    box.retryNow();
    return action;
  }
  function pending() { return box.all(); }
  function flush() {
    if (deferred === null) return;
    var html = deferred;
    deferred = null;
    swapLive(html);
  }
  window.ftScreen = { queue: queue, pending: pending, flush: flush };

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var submitter = event.submitter;
    var kind = (submitter && submitter.getAttribute("data-action")) ||
      (form.getAttribute && form.getAttribute("data-action"));
    if (!kind || !submitter) return;
    event.preventDefault();
    // What the screen showed: a move that waited while the table moved on is refused.
    var state = document.getElementById("table-state");
    var urls = live() ? live().dataset : {};
    var shown = { trick: state ? state.dataset.trick : "", deal: state ? state.dataset.deal : "" };
    var pad = document.getElementById("pad");
    if (kind === "gesture") {
      queue(urls.gestureUrl || submitter.formAction,
        { gesture: submitter.value, pad: pad ? pad.dataset.pad : "" });
      return;
    }
    if (kind === "draw") {
      queue(urls.drawUrl || form.action, { kind: submitter.value, points: "", pad: form.dataset.pad });
      return;
    }
    if (kind === "claim") {
      // Who won the game, with the game and the tricks taken this screen showed.
      var taken = form.querySelector("[name=taken]");
      queue(urls.claimUrl || form.action,
        { winner: submitter.value, deal: shown.deal, taken: taken ? taken.value : "" });
      submitter.setAttribute("aria-busy", "true");
      return;
    }
    queue((kind === "point" ? urls.pointUrl : urls.playUrl) || form.action,
      { card: submitter.value, trick: shown.trick, deal: shown.deal });
    submitter.setAttribute("aria-busy", "true");
  });

  // The pushed channel (tournament.serving.live_channel): each message says the table changed,
  // and the live part is fetched as a poll would (a 304 when it was this page's own
  // change). A message that lands while a fetch is on its way asks again after it.
  var fetching = null; // the request of the live part on its way (htmx's xhr), if any
  var fetchedFrom = null; // the #live that sent it
  var again = false;
  function refresh() {
    if (fetching) { again = true; return; }
    document.body.dispatchEvent(new CustomEvent("poll"));
  }
  // A table's state older than the one shown, of the same deal: a fetch answered before
  // a change whose push came first. Swapped in, it would take the table back in time
  // (a trick taken shown as still pointed at, a turn shown as another's) until the next
  // change, which may wait for this very screen.
  function olderThanShown(root) {
    var shown = document.getElementById("table-state");
    var fresh = root && root.querySelector("#table-state");
    return !!(shown && fresh && fresh.dataset.deal === shown.dataset.deal &&
      Number(fresh.dataset.version) < Number(shown.dataset.version));
  }
  function markMine(state) {
    var me = live() && live().dataset.me;
    state.querySelectorAll(".seat").forEach(function (seat) {
      var mine = seat.dataset.player === me;
      seat.classList.toggle("seat-me", mine);
      var tag = seat.querySelector(".you-tag");
      if (tag) tag.hidden = !mine;
      // The state is drawn for the whole table: this screen's own player is here, never gone.
      if (mine) {
        seat.classList.remove("seat-gone");
        var gone = seat.querySelector(".tag-gone");
        if (gone) gone.remove();
      }
    });
    state.querySelectorAll("[data-pointers]").forEach(function (button) {
      var mine = button.dataset.pointers.split(" ").indexOf(me) >= 0;
      button.setAttribute("aria-pressed", mine ? "true" : "false");
    });
    var myTurn = state.dataset.toPlay === me;
    var turn = state.querySelector(".your-turn");
    var waiting = state.querySelector(".waiting-for");
    if (turn) turn.hidden = !myTurn;
    if (waiting) waiting.hidden = myTurn;
    document.querySelectorAll(".hand-cards button.card").forEach(function (card) {
      if (myTurn) card.removeAttribute("aria-disabled");
      else card.setAttribute("aria-disabled", "true");
    });
    return myTurn;
  }

  // Every focusable element of the page has an id, so the focus goes back to the same one
  // after any swap: the channel's state (applyState), an action's answer (swapLive) and a
  // poll's live part (htmx) alike. Before a swap the focus is noted with where it would
  // go should its control leave: the card beside it in its list (a card played).
  function focusMemo() {
    var el = document.activeElement;
    if (!el || el === document.body || !el.id || !live() || !live().contains(el)) return null;
    var ids = [el.id];
    var item = el.closest("li");
    [item && item.nextElementSibling, item && item.previousElementSibling].forEach(function (near) {
      var control = near && near.querySelector("button[id]");
      if (control) ids.push(control.id);
    });
    return ids;
  }
  // The focused control left with the table's change (a finger once the vote opens, a
  // vote once the trick is taken, a card played): the same card's other control, else the
  // card beside it, else the hand, else its heading, never <body>.
  function restoreFocus(memo) {
    if (!memo) return;
    var code = memo[0].replace(/^(gesture-)?point-/, "");
    var ids = [memo[0], "point-" + code, "gesture-point-" + code].concat(memo.slice(1));
    var target = null;
    ids.some(function (id) {
      var el = document.getElementById(id);
      if (el && !el.closest("[hidden]")) target = el;
      return !!target;
    });
    target = target || document.querySelector(".hand-cards button.card:not([aria-disabled])") ||
      document.getElementById("hand-title") || document.querySelector("h1");
    if (!target || document.activeElement === target) return;
    if (!target.matches("button, a, input, summary, [tabindex]")) target.setAttribute("tabindex", "-1");
    target.focus();
  }

  // What changed at the table between two of its states, in one short line for a screen
  // reader: the cards played by others, the vote opened, the table disagreeing, the trick
  // taken, this player's turn. Names and cards are read from the table, the sentences from
  // #table-words (translated by the page): no word of it is written here.
  function words(name, fill) {
    var el = document.getElementById("table-words");
    var text = (el && el.getAttribute("data-" + name)) || "";
    // A function, not a string: a "$" in a player's name is no replacement pattern.
    Object.keys(fill).forEach(function (key) { text = text.replace("{" + key + "}", function () { return fill[key]; }); });
    return text;
  }
  function textOf(root, selector) {
    var el = root.querySelector(selector);
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }
  function tableNews(before, after) {
    if (!before || !after || before === after) return [];
    var me = live() && live().dataset.me;
    var sameDeal = before.dataset.deal === after.dataset.deal;
    var sameTrick = sameDeal && before.dataset.trick === after.dataset.trick;
    var said = sameDeal ? [] : lastTrickNews(before, after);
    var myName = textOf(after, '.seat[data-player="' + me + '"] .seat-name bdi');
    var had = {};
    if (sameTrick) before.querySelectorAll(".trick-card").forEach(function (item) { had[item.dataset.card] = true; });
    after.querySelectorAll(".trick-card").forEach(function (item) {
      var name = textOf(item, ".played-by bdi");
      if (had[item.dataset.card] || !name || name === myName) return;
      said.push(words("played", { name: name, card: textOf(item, ".card > .visually-hidden") }));
    });
    if (!sameDeal) return said.concat(turnNews(before, after, me));
    if (before.dataset.pointing !== "1" && after.dataset.pointing === "1") said.push(textOf(after, "#point-ask"));
    if (!before.querySelector(".disagree-note") && after.querySelector(".disagree-note")) said.push(textOf(after, ".disagree-note"));
    after.querySelectorAll(".seat").forEach(function (seat) {
      var was = before.querySelector('.seat[data-player="' + seat.dataset.player + '"]');
      if (was && Number(seat.dataset.tricks) > Number(was.dataset.tricks)) {
        said.push(words("taken", { name: textOf(seat, ".seat-name bdi") }));
      }
    });
    return said.concat(turnNews(before, after, me));
  }
  // The trick that ended the game before (a new deal no longer counts it): said when this
  // screen showed that very trick in play, so once, never on a later swap or a reload.
  function lastTrickNews(before, after) {
    var was = after.dataset;
    var showed = !!was.beforeDeal && before.dataset.deal === was.beforeDeal &&
      before.dataset.trick === was.beforeTrick;
    return showed ? [words("taken", { name: was.beforeTaker })] : [];
  }
  function turnNews(before, after, me) {
    var mine = after.dataset.toPlay === me && !!me;
    var wasMine = before.dataset.toPlay === me && before.dataset.deal === after.dataset.deal;
    return mine && !wasMine ? [textOf(after, ".your-turn")] : [];
  }
  // One announcement for one change; an empty one says nothing (and leaves the last).
  function say(lines) {
    var announce = document.getElementById("announce");
    var line = lines.filter(Boolean).join(". ");
    if (announce && line) announce.textContent = line;
  }
  // A refusal's reason stands until the table's next change, then goes.
  function clearNews() {
    document.querySelectorAll("#live [data-news]").forEach(function (news) { news.remove(); });
  }

  function applyState(html) {
    if (pressing()) { heldState = html; return; }
    var shown = document.getElementById("table-state");
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector("#table-state");
    if (!shown || !fresh) { refresh(); return; }
    // Another deal (or, after a move, another table, whose versions are not this one's):
    // the live part is fetched whole, with its hand.
    if (fresh.dataset.deal !== shown.dataset.deal) { refresh(); return; }
    if (Number(fresh.dataset.version) <= Number(shown.dataset.version)) return;
    // The pad's strokes come only when the pad changed since this screen's last push:
    // #pad-added holds those added since the version it names, else #pad-kept names the
    // pad's version; a screen showing another version (a push it skipped) fetches the
    // live part, pad and all.
    var kept = holder.querySelector("#pad-kept");
    var added = holder.querySelector("#pad-added");
    var strokes = document.getElementById("pad-strokes");
    var since = kept ? kept.dataset.padVersion : (added ? added.dataset.since : null);
    if (since !== null && strokes && since !== strokes.dataset.padVersion) { refresh(); return; }
    var memo = focusMemo();
    shown.replaceWith(fresh);
    clearNews();
    if (added && strokes) {
      while (added.firstChild) strokes.appendChild(added.firstChild);
      strokes.setAttribute("data-pad-version", added.dataset.padVersion);
    }
    ["pad-strokes", "pad-count", "pad-full"].forEach(function (id) {
      var now = document.getElementById(id);
      var next = holder.querySelector("#" + id);
      if (now && next) now.replaceWith(next);
    });
    document.dispatchEvent(new CustomEvent("ft:pad"));
    markMine(fresh);
    restoreFocus(memo);
    say(tableNews(shown, fresh).concat(showGestures(fresh, true)));
  }

  // A gesture shows for the seconds the server counted, then goes; another player's new
  // gesture is read out once (never this screen's own, never again after a swap).
  var heard = {};
  function showGestures(root, announceNew) {
    var me = live() && live().dataset.me;
    var said = [];
    root.querySelectorAll("[data-gesture]").forEach(function (shown) {
      var id = shown.getAttribute("data-gesture");
      var seat = shown.closest(".seat");
      if (announceNew && !heard[id] && seat && seat.dataset.player !== me) said.push(shown.getAttribute("aria-label"));
      heard[id] = true;
      setTimeout(function () { shown.remove(); }, Number(shown.dataset.seconds || 0) * 1000);
    });
    return said;
  }
  document.addEventListener("DOMContentLoaded", function () { showGestures(document, false); });
  // A poll's live part (the channel blocked, or a new deal) is heard and keeps the focus
  // as the channel's state does: compared with the table shown before the swap.
  var polledFrom = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.elt.id !== "live") return;
    polledFrom = { state: document.getElementById("table-state"), focus: focusMemo() };
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.elt.id !== "live" || !live()) return;
    var from = polledFrom || {};
    polledFrom = null;
    restoreFocus(from.focus);
    say(tableNews(from.state, document.getElementById("table-state")).concat(showGestures(live(), true)));
    document.dispatchEvent(new CustomEvent("ft:pad"));
  });
  // A poll's swap that lands while a stroke is drawn waits for the stroke's end.
  var refreshAfterStroke = false;
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.elt.id === "live" && drawing() && event.detail.shouldSwap !== false) {
      event.detail.shouldSwap = false;
      refreshAfterStroke = true;
    }
  });
  document.addEventListener("ft:stroke-end", function () {
    flush();
    if (refreshAfterStroke) { refreshAfterStroke = false; refresh(); }
  });

  // Stored with an empty answer, an action's change comes by the channel. Should the
  // screen not show the table's state at the version the answer named within
  // PUSH_LATE_MS (a push lost, a stream gone without an error), the live part is fetched
  // then, not at the next poll, ten seconds apart while pushed; and again, until it shows
  // it. Any other message (an older state, the pad's) settles nothing: only the version
  // shown does. An answer without a version (an action stored already) fetches once.
  var PUSH_LATE_MS = 3000;
  var LATE_TRIES = 5;
  var awaited = 0; // the table's version this screen's latest action was stored at
  var pushLate = null;
  function shownVersion() {
    var shown = document.getElementById("table-state");
    return shown ? Number(shown.dataset.version) : 0;
  }
  function awaitState(version) {
    // Versions only grow at a table, so the latest action's is the one to wait for.
    awaited = Number(version) || 0;
    var tries = 0;
    clearTimeout(pushLate);
    var check = function () {
      pushLate = null;
      if (awaited && shownVersion() >= awaited) return;
      refresh();
      tries += 1;
      if (awaited && tries < LATE_TRIES) pushLate = setTimeout(check, PUSH_LATE_MS);
    };
    pushLate = setTimeout(check, PUSH_LATE_MS);
  }

  // The stream counts as open once it is heard, not once it opens: behind a proxy that
  // holds its events it opens and says nothing. Each message or beat (every data-beat
  // seconds, tournament.serving.live_channel) keeps <body data-pushed> (static/js/poll.js then
  // polls seldom); two beats of silence take it away, and the page polls at the room's
  // pace again, saying nothing to the player.
  var silence = null;
  function streamHeard() {
    document.body.setAttribute("data-pushed", "");
    clearTimeout(silence);
    var beat = Number(live() && live().getAttribute("data-beat")) || 10;
    silence = setTimeout(streamSilent, 2 * beat * 1000);
  }
  function streamSilent() {
    clearTimeout(silence);
    document.body.removeAttribute("data-pushed");
  }
  function openStream() {
    var el = live();
    var url = el && el.getAttribute("data-stream");
    if (!url || !window.EventSource) return;
    var source = new EventSource(url);
    source.onmessage = function () { streamHeard(); unstick(); refresh(); };
    source.addEventListener("table", function (event) { streamHeard(); unstick(); applyState(event.data); });
    source.addEventListener("beat", streamHeard);
    // The browser reconnects by itself; meanwhile the page polls at the usual pace.
    source.onerror = streamSilent;
  }
  // A fetch of the live part still pending when the stream speaks (sent while the server
  // was away, its answer never to come) would hold the stream's news behind it: it is
  // dropped, and the live part asked for again.
  var STUCK_MS = 1000;
  var fetchingSince = 0;
  function unstick() {
    if (fetching && Date.now() - fetchingSince > STUCK_MS) {
      again = true;
      fetching.abort(); // htmx:afterRequest follows: fetched() asks again
    }
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.id !== "live") return;
    fetching = event.detail.xhr;
    fetchingSince = Date.now();
    fetchedFrom = event.detail.elt;
  });
  function fetched() {
    fetching = fetchedFrom = null;
    if (again) { again = false; refresh(); }
  }
  // A fetch ends when its answer is in and, when it replaced #live, once htmx has made
  // the new #live listen for "poll" (at the settle, 20 ms after the swap: a message in
  // between reached no listener and was lost). The end is known by the request, not by
  // the element's id: once #live is replaced, htmx tells it on the old one's parent.
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!fetching || xhr !== fetching) return;
    if (document.body.contains(fetchedFrom) || !live()) { fetched(); return; }
    // Should the new #live never load (an action's answer replaced it meanwhile).
    setTimeout(function () { if (fetching === xhr) fetched(); }, 200);
  });
  document.addEventListener("htmx:load", function (event) {
    if (fetching && event.target === live() && live() !== fetchedFrom) fetched();
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.elt.id !== "live" || event.detail.shouldSwap === false) return;
    var holder = document.createElement("div");
    holder.innerHTML = event.detail.serverResponse || "";
    if (olderThanShown(holder)) { event.detail.shouldSwap = false; again = true; }
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
