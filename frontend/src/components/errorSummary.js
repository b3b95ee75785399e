/* The error summary of forms with several fields in error: a box at the top of the form, announced
   (role="alert"), that lists each field in error as a link to it ("Nom", "Email : <message>"). No React here, so
   the vanilla account and contact pages use it without loading React; formFeedback.js re-exports it for islands. */

export function summaryTitle(count) {
  return `${count} champs à corriger :`;
}

/** The field's visible name: its <label>, else aria-label, else its name; without a required star or colon. */
export function fieldLabel(field) {
  const label = (field.labels && field.labels[0]) || field.closest("label");
  const text = (label ? label.textContent : field.getAttribute("aria-label") || field.name || "").replace(/\s+/g, " ");
  return text.replace(/[\s*:]+$/, "").trim();
}

function ensureId(element, prefix) {
  if (!element.id) element.id = `${prefix}-${Math.random().toString(36).slice(2, 9)}`;
  return element.id;
}

function reveal(field) {
  const reduce = typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  field.scrollIntoView?.({ block: "center", behavior: reduce ? "auto" : "smooth" });
  field.focus({ preventScroll: true });
}

export function clearErrorSummary(form) {
  const summary = form && form.querySelector("[data-error-summary]");
  if (summary) {
    summary.hidden = true;
    summary.replaceChildren();
  }
}

/**
 * List `entries` ([{ field, message? }], in the form's order) in the form's summary when there are two or more;
 * with fewer, the summary is hidden (the form's one message says it all). Returns the summary element or null.
 */
export function showErrorSummary(form, entries) {
  const items = (entries || []).filter((entry) => entry && entry.field);
  if (items.length < 2) {
    clearErrorSummary(form);
    return null;
  }
  let summary = form.querySelector("[data-error-summary]");
  if (!summary) {
    summary = document.createElement("div");
    summary.className = "error-summary";
    summary.dataset.errorSummary = "";
    summary.setAttribute("role", "alert");
    form.prepend(summary);
  }
  const title = document.createElement("p");
  title.className = "error-summary-title";
  title.textContent = summaryTitle(items.length);
  summary.setAttribute("aria-labelledby", ensureId(title, "error-summary-title"));
  const list = document.createElement("ul");
  for (const { field, message } of items) {
    const link = document.createElement("a");
    link.href = `#${ensureId(field, "field")}`;
    const name = fieldLabel(field);
    link.textContent = message ? `${name} : ${message}` : name;
    link.addEventListener("click", (event) => {
      event.preventDefault();
      reveal(field);
    });
    const item = document.createElement("li");
    item.append(link);
    list.append(item);
  }
  summary.replaceChildren(title, list);
  summary.hidden = false;
  return summary;
}
