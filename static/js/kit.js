/* The printable pages (the table kit, the debrief report): the print button opens the
   browser's print dialog. Without JavaScript the button does nothing and the browser's
   own Print menu does the same. */
(function () {
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) window.print();
  });
})();
