/* Organizer console helpers, all optional: the pages work without them.
   - messages: a close button; success notes fade after a while, errors stay.
   - roster filter: typing in [data-filter] hides roster rows that do not match
     (accents and case ignored); the filter survives the console's htmx swaps.
   - details.confirm-inline (organizer/_confirm.html): an action that asks first, in the
     page; its "Cancel" button, or Escape pressed inside it, closes the question and gives
     the focus back to its opener.
   - a message's close button (x) gives the focus to the next message, else the one
     before, else the page's main content (where its skip link leads), never to <body>.
   - focus and announcements: after a form posted in the background (hx-boost), the focus
     stays on the control that was pressed (the same form, found again in the new page);
     when that control is gone (Pause became Resume), it goes to the message instead. The
     message is read out once from #announce, a live region outside the swapped part that
     is never replaced. A poll never moves the focus: when its swap took away the focused
     element, the same element (by id, else by its place in the nearest element with an
     id) gets it back, and the questions that were open stay open. What a poll brings
     news of (results, disputes: the poller's data-news) is read out once from #announce.
   - form[data-submit-once]: a second press is ignored (a one-time sign-in link would be
     spent by the first and refused by the second).
   - an answer that lacks the element it should replace (the sign-in page after the
     session expired, say) is opened as a page instead of being swapped in.
   - form[data-focus-refused] sent back with refused fields (aria-invalid): the page opens
     with the focus on the first of them.
   - a server failure (5xx: a full disk, say) answers a swapped form with one line of
     text (tournament.views.errors), shown in red at the top of the page; nothing is
     swapped, so what was typed stays in the form. */
(function () {
  var filterText = "";

  // The letters Unicode does not split into a letter and an accent, read as the server's
  // alphabetical order reads them (tournament/rules/ordering.py): "lukasz" finds "\u0141ukasz".
  // (Escaped: l-stroke, o-slash, ae, oe, d-stroke, eth, thorn, sharp s, dotless i.)
  var LATIN = {
    "\u0142": "l", "\u00f8": "o", "\u00e6": "ae", "\u0153": "oe", "\u0111": "d",
    "\u00f0": "d", "\u00fe": "th", "\u00df": "ss", "\u0131": "i"
  };
  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[\u0142\u00f8\u00e6\u0153\u0111\u00f0\u00fe\u00df\u0131]/g, function (letter) {
        return LATIN[letter];
      });
  }

  function applyFilter(input) {
    var table = document.querySelector(input.getAttribute("data-filter"));
    if (!table) return;
    var query = fold(input.value.trim());
    table.querySelectorAll("tbody tr").forEach(function (row) {
      var name = row.querySelector(".name");
      row.hidden = query !== "" && fold(name ? name.textContent : "").indexOf(query) === -1;
    });
  }

  // Where the focus goes when a message it was in is dismissed (never to <body>): the next
  // message, else the one before, else the page's main content (the skip link's target).
  function dismiss(message) {
    var had = message.contains(document.activeElement);
    var others = messages();
    var at = others.indexOf(message);
    var target = others[at + 1] || others[at - 1] || mainContent();
    message.remove();
    if (!had || !target) return;
    if (!target.matches(FOCUSABLE)) target.tabIndex = -1;
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: "nearest" });
  }

  function mainContent() {
    var skip = document.querySelector("a.skip-link[href^='#']");
    var target = skip && document.getElementById(skip.getAttribute("href").slice(1));
    return target || document.querySelector("main");
  }

  // Escape closes the question it is pressed in, as its "Cancel" does.
  function closeQuestion(details) {
    details.open = false;
    details.querySelector("summary").focus();
  }
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    var details = event.target.closest && event.target.closest("details.confirm-inline[open]");
    if (!details) return;
    event.preventDefault();
    closeQuestion(details);
  });

  function setup() {
    document.querySelectorAll("[data-confirm-cancel]").forEach(function (button) { button.hidden = false; });
    document.querySelectorAll(".flash .message").forEach(function (message) {
      var button = message.querySelector(".dismiss");
      if (button && button.hidden) {
        button.hidden = false;
        button.addEventListener("click", function () { dismiss(message); });
      }
      var lasting = message.classList.contains("message-error") ||
        message.classList.contains("message-warning");
      if (!lasting && !message.dataset.fading) {
        message.dataset.fading = "1";
        setTimeout(function fade() {
          // A message that has the focus stays until it loses it.
          if (message.contains(document.activeElement)) setTimeout(fade, 10000);
          else message.remove();
        }, 10000);
      }
    });
    document.querySelectorAll("input[data-filter]").forEach(function (input) {
      input.hidden = false;
      if (!input.dataset.ready) {
        input.dataset.ready = "1";
        input.value = filterText;
        input.addEventListener("input", function () {
          filterText = input.value;
          applyFilter(input);
        });
      }
      applyFilter(input);
    });
  }

  // --- focus and announcements across swaps ---------------------------------------------
  var FOCUSABLE = "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]";
  var pressed = null; // the control pressed for the background post in flight
  var kept = null; // what had the focus before a poll's swap
  var sent = null; // {field id: value} of the form pressed, as it was sent
  var unsent = []; // choices made but not sent, to put back after the swap under way

  function visible(element) {
    return !!element && element.isConnected && !element.disabled &&
      element.getClientRects().length > 0;
  }

  function place(element) {
    var holder = element.parentElement && element.parentElement.closest("[id]");
    if (!holder) return { holder: "", index: -1 };
    return {
      holder: holder.id,
      index: Array.prototype.indexOf.call(holder.querySelectorAll(FOCUSABLE), element)
    };
  }

  // What a form says beyond its action: its hidden fields (the CSRF token aside). Forms
  // that post to one URL (each player's "won a game") differ only there.
  function hiddenFields(form) {
    if (!form) return "";
    return Array.prototype.filter.call(form.querySelectorAll("input[type=hidden]"), function (input) {
      return input.name !== "csrfmiddlewaretoken";
    }).map(function (input) { return input.name + "=" + input.value; }).join("&");
  }

  function describe(element) {
    if (!element || element === document.body) return null;
    var form = element.form || (element.closest && element.closest("form"));
    var where = place(element);
    return {
      id: element.id || "",
      action: form ? form.getAttribute("action") : "",
      fields: hiddenFields(form),
      text: element.textContent.trim(),
      kind: element.className,
      holder: where.holder,
      index: where.index,
      open: openQuestions()
    };
  }

  function openQuestions() {
    return Array.prototype.map.call(document.querySelectorAll("details[open][id]"),
      function (details) { return details.id; });
  }

  // A control inside a closed question is reached through the question's opener.
  function reachable(element) {
    var closed = element && element.closest("details:not([open])");
    return closed ? closed.querySelector("summary") : element;
  }

  function byPlace(wanted) {
    var holder = wanted.holder && document.getElementById(wanted.holder);
    if (!holder || wanted.index < 0) return null;
    var element = holder.querySelectorAll(FOCUSABLE)[wanted.index];
    return visible(element) ? element : null;
  }

  function sameControl(wanted) {
    var element = wanted.id && document.getElementById(wanted.id);
    if (visible(reachable(element))) return reachable(element);
    if (!wanted.action) return null;
    // The same form's button: same words, else the same kind ("Next: …" moves on). Among
    // forms posting to one URL, the one sending the same hidden fields, when there is one:
    // the first of them would be another player's button (the words hold the count won).
    var forms = Array.prototype.filter.call(document.querySelectorAll("form"), function (form) {
      return form.getAttribute("action") === wanted.action;
    });
    var sameFields = forms.filter(function (form) { return hiddenFields(form) === wanted.fields; });
    if (sameFields.length) forms = sameFields;
    var buttons = [];
    forms.forEach(function (form) {
      form.querySelectorAll("button[type=submit], button:not([type])").forEach(function (button) {
        if (visible(reachable(button))) buttons.push(button);
      });
    });
    var same = buttons.filter(function (button) { return button.textContent.trim() === wanted.text; });
    if (!same.length) same = buttons.filter(function (button) { return button.className === wanted.kind; });
    return same.length ? reachable(same[0]) : null;
  }

  function announce(texts) {
    var region = document.getElementById("announce");
    if (!region || !texts.length) return;
    region.textContent = "";
    // Emptied first, so the same message twice in a row is read twice.
    setTimeout(function () { region.textContent = texts.join(" "); }, 50);
  }

  function messages() {
    return Array.prototype.slice.call(document.querySelectorAll("#flash .message"));
  }

  function afterPress(wanted) {
    var shown = messages();
    announce(shown.map(function (message) {
      var copy = message.cloneNode(true);
      copy.querySelectorAll(".dismiss").forEach(function (button) { button.remove(); });
      return copy.textContent.trim();
    }));
    var target = sameControl(wanted);
    if (!target && shown.length) {
      target = shown[0];
      target.tabIndex = -1;
    }
    target = target || byPlace(wanted);
    if (target) target.focus({ preventScroll: true });
  }

  // Run in the same task as the swap (htmx:afterSwap, after its out-of-band parts), so no
  // click or key can land on a question closed, a select turned back or <body> by the poll
  // in between: settling comes 20 ms later, and a press in that gap went to the wrong place.
  function restoreAfterPoll(before) {
    before.open.forEach(function (id) {
      var details = document.getElementById(id);
      if (details && details.tagName === "DETAILS") details.open = true;
    });
    afterPoll(before);
  }

  function afterPoll(before) {
    var focused = document.activeElement;
    if (focused && focused !== document.body && focused.isConnected) return;
    var element = before.id && document.getElementById(before.id);
    // Else the same form's button (a poll may land just after a press swapped the page),
    // else whatever now stands where it stood.
    element = visible(element) ? element : sameControl(before) || byPlace(before);
    if (element) element.focus({ preventScroll: true });
  }

  // A choice made but not sent yet (a select turned, a box typed in) survives a poll that
  // re-renders its form (polls come every half second), and the answer to an earlier press
  // that lands after it (a poll may show the press's result first, and the next choice is
  // made before the press's own answer arrives). What the pressed form sent is its
  // answer's to reset.
  function isDefault(field) {
    if (field.tagName !== "SELECT") return field.value === field.defaultValue;
    var chosen = field.options[field.selectedIndex];
    var preset = Array.prototype.some.call(field.options, function (option) {
      return option.defaultSelected;
    });
    return preset ? Boolean(chosen && chosen.defaultSelected) : field.selectedIndex <= 0;
  }
  function fieldsWithId(root) {
    return Array.prototype.filter.call(
      root.querySelectorAll("select[id], input[id], textarea[id]"),
      function (field) {
        return field.type !== "hidden" && field.type !== "checkbox" && field.type !== "radio";
      });
  }
  function changedFields() {
    var changed = [];
    fieldsWithId(document).forEach(function (field) {
      if (isDefault(field)) return;
      if (sent && sent[field.id] === field.value) return;
      changed.push({ id: field.id, value: field.value });
    });
    return changed;
  }
  function restoreFields(changed) {
    (changed || []).forEach(function (saved) {
      var field = document.getElementById(saved.id);
      if (field && field.isConnected && isDefault(field)) field.value = saved.value;
    });
  }

  function isPoll(config) {
    // A poll's element has its own trigger; a boosted press's (a form, a link) has none.
    return Boolean(config && config.verb === "get" && config.elt && config.elt.hasAttribute &&
      config.elt.hasAttribute("hx-trigger"));
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig;
    if (isPoll(config) && !config.elt.isConnected) {
      // Sent before a press replaced the page, answered after it: what it read is older
      // than what the page now shows. The next poll brings what changed.
      event.detail.shouldSwap = false;
      return;
    }
    if (event.detail.shouldSwap === false) return;
    // Not for a link followed to another page: its fields are not these.
    var answer = pressed && config && config.verb !== "get";
    unsent = isPoll(config) || answer ? changedFields() : [];
    if (pressed) return;
    kept = describe(document.activeElement) ||
      { id: "", action: "", text: "", holder: "", index: -1, open: openQuestions() };
  });
  document.addEventListener("htmx:afterSwap", function () {
    restoreFields(unsent);
    if (kept) restoreAfterPoll(kept);
  });
  // The poller swapped in by a poll says once what arrived since the last one; the next
  // poll replaces it, and a page rendered whole carries no news.
  function announceNews() {
    var poller = document.getElementById("live-poll");
    var news = poller && poller.getAttribute("data-news");
    if (!news) return;
    poller.removeAttribute("data-news");
    announce([news]);
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    announceNews();
    // A poll may settle between the press and its answer (polls run every half second):
    // only the answer to the form sent in the background (never a GET) carries its message.
    var config = event.detail.requestConfig;
    unsent = [];
    if (pressed && config && config.verb !== "get") {
      var wanted = pressed;
      pressed = null;
      sent = null;
      afterPress(wanted);
    } else if (kept) {
      var before = kept;
      kept = null;
      afterPoll(before);
    }
  });
  document.addEventListener("htmx:responseError", function () { pressed = null; sent = null; });
  document.addEventListener("click", function (event) {
    var cancel = event.target.closest && event.target.closest("[data-confirm-cancel]");
    if (!cancel) return;
    closeQuestion(cancel.closest("details"));
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    var target = event.detail.target;
    if (!target || !target.id || xhr.status !== 200) return;
    if (xhr.responseText.indexOf('id="' + target.id + '"') === -1) {
      event.detail.shouldSwap = false;
      window.location.assign(xhr.responseURL || window.location.href);
    }
  });
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    if (xhr.status < 500) return;
    var note = document.getElementById("fault-note");
    if (!note) {
      note = document.createElement("p");
      note.id = "fault-note";
      note.className = "message message-error";
      note.setAttribute("role", "alert");
      var place = document.getElementById("console") || document.querySelector("main");
      if (!place) return;
      place.insertBefore(note, place.firstChild);
    }
    var text = xhr.getResponseHeader("Content-Type") || "";
    var words = document.querySelector("[data-server-failed]");
    note.textContent = text.indexOf("text/plain") === 0 && xhr.responseText
      ? xhr.responseText
      : (words ? words.dataset.serverFailed : "") + " (" + xhr.status + ")";
    note.scrollIntoView({ block: "nearest" });
  });
  document.addEventListener("DOMContentLoaded", setup);
  // A page that opens with a message (an action posted without htmx, then redirected):
  // the focus starts on the message, and it is read out.
  // After "load": a page opened at a #fragment has moved its focus by then.
  // A form sent back refused (paper entry) starts on its first refused field instead, where
  // the fix is typed: the field also carries autofocus, for a browser without JavaScript,
  // and this covers the browsers that skip autofocus (a page restored from history).
  window.addEventListener("load", function () {
    var refused = document.querySelector('form[data-focus-refused] [aria-invalid="true"]');
    if (refused && !refused.disabled) {
      if (document.activeElement !== refused) refused.focus();
      return;
    }
    if (messages().length && document.activeElement === document.body) {
      afterPress({ id: "", action: "", holder: "", index: -1 });
    }
  });
  document.addEventListener("htmx:afterSettle", setup);
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.closest && form.closest("[hx-boost], [data-hx-boost]")) {
      pressed = describe(event.submitter || form);
      sent = {};
      fieldsWithId(form).forEach(function (field) { sent[field.id] = field.value; });
    }
    if (form.matches && form.matches("form[data-submit-once]")) {
      if (form.dataset.sent) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
      form.dataset.sent = "1";
    }
  }, true);
  // A page shown again from the back button starts afresh.
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("form[data-submit-once]").forEach(function (form) {
      delete form.dataset.sent;
    });
  });
})();
