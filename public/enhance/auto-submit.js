// The one behaviour a page sent without React keeps (docs/decisions/016): a select in a
// form marked data-auto-submit applies at once, as React's onChange does on hydrated pages.
document.addEventListener("change", (event) => {
  const field = event.target;
  if (field instanceof HTMLSelectElement && field.form?.hasAttribute("data-auto-submit")) field.form.requestSubmit();
});
