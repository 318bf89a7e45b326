/* "Who are you?" (templates/phone/player_pick.html): the names on the page narrow at each
   letter typed, with no request, so a slow Wi-Fi never holds them. Each name button carries
   its search key (the name in Latin letters, no case: tables.views.player); the letters
   typed are folded alike. Letters outside the Latin alphabet are left to the server's
   search (htmx, on the same field), which spells every script in Latin letters. A long
   roster shows no names until something is typed: the server's answer brings them.
   A screen reader hears how many names match (#names-count), not every name at each letter. */
(function () {
  "use strict";
  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
  }
  function narrow() {
    var field = document.getElementById("name-search");
    var buttons = document.querySelectorAll("#names [data-key]");
    var none = document.getElementById("no-match");
    if (!field || !buttons.length) { count(); return; }
    var typed = fold(field.value);
    if (/[^\x20-\x7e]/.test(typed)) { count(); return; }
    var shown = 0;
    buttons.forEach(function (button) {
      var match = button.getAttribute("data-key").indexOf(typed) !== -1;
      button.hidden = !match;
      if (match) shown += 1;
    });
    if (none) none.hidden = shown > 0;
    count();
  }
  // The sentence comes from the page, translated; only the number is put in.
  function count() {
    var status = document.getElementById("names-count");
    var field = document.getElementById("name-search");
    if (!status || !field || !field.value.trim()) return;
    var shown = document.querySelectorAll("#names [data-key]:not([hidden])").length;
    status.textContent = status.getAttribute("data-say").replace("{count}", String(shown));
  }
  document.addEventListener("input", function (event) {
    if (event.target.id === "name-search") narrow();
  });
  // The server's list replaced the names: letters typed since it left apply to it too.
  document.addEventListener("htmx:afterSwap", narrow);
})();
