/* Progressive enhancement of the /contact form: without JavaScript it posts to the page (PRG);
   with it, the form posts JSON to POST /api/contact-messages and stays on the page. No React here. */
import { api } from "../../components/api.js";
import { clearErrorSummary, showErrorSummary } from "../../components/errorSummary.js";

export function contactPayload(form) {
  const value = (name) => (form.elements[name] ? form.elements[name].value.trim() : "");
  const userId = value("user_id");
  return {
    name: value("name"),
    email: value("email"),
    phone: value("phone"),
    subject: value("subject"),
    message: value("message"),
    followUp: Boolean(form.elements.followUp && form.elements.followUp.checked),
    user_id: userId ? Number(userId) : null,
  };
}

function showStatus(box, text, ok) {
  const p = document.createElement("p");
  p.className = ok ? "form-success" : "form-error";
  p.textContent = text;
  box.replaceChildren(p);
}

function clearFieldErrors(form) {
  for (const el of form.querySelectorAll("[data-js-error]")) el.remove();
  for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  clearErrorSummary(form);
}

function showFieldErrors(form, errors) {
  const summary = [];
  for (const [name, messages] of Object.entries(errors || {})) {
    const input = form.elements[name];
    if (!input || !input.id || !Array.isArray(messages)) continue;
    const p = document.createElement("p");
    p.className = "field-error";
    p.id = `${input.id}_jserror`;
    p.dataset.jsError = "";
    p.textContent = messages.join(" ");
    input.setAttribute("aria-invalid", "true");
    const described = (input.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
    input.setAttribute("aria-describedby", [...described, p.id].join(" "));
    input.insertAdjacentElement("afterend", p);
    summary.push({ field: input, message: p.textContent });
  }
  // With several fields in error, a summary lists each as a link to it, in the form's order.
  const order = Array.from(form.elements);
  summary.sort((a, b) => order.indexOf(a.field) - order.indexOf(b.field));
  showErrorSummary(form, summary);
}

function reveal(element) {
  if (!element) return;
  if (!element.matches("input, textarea, select, button")) element.tabIndex = -1;
  element.scrollIntoView?.({ block: "center" });
  element.focus({ preventScroll: true });
}

export function enhanceContactForm(form) {
  const status = form.querySelector("[data-form-status]");
  const button = form.querySelector("[data-submit]");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearFieldErrors(form);
    if (!form.checkValidity()) {
      form.reportValidity();
      return;
    }
    button.disabled = true;
    try {
      await api("/api/contact-messages", { method: "POST", body: contactPayload(form) });
      form.reset();
      showStatus(status, form.dataset.sent, true);
      reveal(status);
    } catch (error) {
      // Past the per-address limit (docs/decisions.md 31) the server's French message says to wait: show it.
      showStatus(status, error.status === 429 && error.message ? error.message : form.dataset.failed, false);
      showFieldErrors(form, error.data && error.data.errors);
      // The first field in error (or the message) is brought into view and focused, so its message is read.
      reveal(form.querySelector("[aria-invalid='true']") || status);
    } finally {
      button.disabled = false;
    }
  });
}

const form = document.querySelector("[data-contact-form]");
if (form) enhanceContactForm(form);
