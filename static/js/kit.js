/* The printable pages (the table kit, the debrief report).
   - The print button opens the browser's print dialog. Without JavaScript the button does
     nothing and the browser's own Print menu does the same.
   - A rule sheet or players' guide whose words run past its page (German is about a
     third longer than English; the longest variants have four clauses) is set in a
     smaller type, a step at a time, until it fits: nothing of the rules may fall off the
     paper. The sheet's headings are sized in em (static/css/kit.css), so they follow. */
(function () {
  var FIT_STEP = 0.96;
  var FIT_SMALLEST = 0.7; // of the stylesheet's size: still readable on paper

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) window.print();
  });

  function overflows(sheet) {
    return sheet.scrollHeight > sheet.clientHeight + 1;
  }

  function fit(sheet) {
    sheet.style.fontSize = "";
    var size = parseFloat(getComputedStyle(sheet).fontSize);
    var scale = 1;
    while (overflows(sheet) && scale > FIT_SMALLEST) {
      scale *= FIT_STEP;
      sheet.style.fontSize = size * scale + "px";
    }
    if (scale < 1) sheet.setAttribute("data-fitted", scale.toFixed(2));
  }

  function fitAll() {
    document.querySelectorAll(".sheet.rule-sheet, .sheet.guide").forEach(fit);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fitAll);
  else fitAll();
  // Again once the fonts are in: they change every line's width.
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(fitAll);
})();
