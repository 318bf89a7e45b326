/* Organizer console helpers, all optional: the pages work without them.
   - messages: a close button; success notes fade after a while, errors stay.
   - roster filter: typing in [data-filter] hides roster rows that do not match
     (accents and case ignored); the filter survives the console's htmx swaps.
   - form[data-confirm]: asks before submitting (for forms that are not htmx-boosted).
   - form[data-submit-once]: a second press is ignored (a one-time sign-in link would be
     spent by the first and refused by the second).
   - an answer that lacks the element it should replace (the sign-in page after the
     session expired, say) is opened as a page instead of being swapped in. */
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

  function setup() {
    document.querySelectorAll(".flash .message").forEach(function (message) {
      var button = message.querySelector(".dismiss");
      if (button && button.hidden) {
        button.hidden = false;
        button.addEventListener("click", function () { message.remove(); });
      }
      var lasting = message.classList.contains("message-error") ||
        message.classList.contains("message-warning");
      if (!lasting && !message.dataset.fading) {
        message.dataset.fading = "1";
        setTimeout(function () { message.remove(); }, 10000);
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

  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    var target = event.detail.target;
    if (!target || !target.id || xhr.status !== 200) return;
    if (xhr.responseText.indexOf('id="' + target.id + '"') === -1) {
      event.detail.shouldSwap = false;
      window.location.assign(xhr.responseURL || window.location.href);
    }
  });
  document.addEventListener("DOMContentLoaded", setup);
  document.addEventListener("htmx:afterSettle", setup);
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.matches && form.matches("form[data-confirm]") && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
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
