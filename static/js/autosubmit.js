/* A language switcher sends itself as soon as a language is picked. Its button stays for
   pages without JavaScript; a boosted form goes through htmx like a tap on that button. */
(function () {
  document.addEventListener("change", function (event) {
    var field = event.target;
    if (!field.matches || !field.matches("select[data-autosubmit]") || !field.form) return;
    if (field.form.requestSubmit) field.form.requestSubmit();
    else field.form.submit();
  });
})();
