/* Small DOM helpers shared by the account pages (vanilla: these pages load no React). */
import { clearErrorSummary, showErrorSummary } from "../errorSummary.js";

export function readProps(name) {
  const mount = document.querySelector(`[data-island="${name}"]`);
  const source = mount && mount.dataset.props && document.getElementById(mount.dataset.props);
  return source ? JSON.parse(source.textContent) : {};
}

export function onReady(start) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}

function setText(element, text) {
  if (!element) return;
  element.textContent = text || "";
  element.hidden = !text;
}

/** Bring `element` into view (centred, below the sticky header) without a jump for people who asked for less motion. */
export function bringIntoView(element) {
  if (!element || typeof element.scrollIntoView !== "function") return;
  const reduce = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  element.scrollIntoView({ block: "center", behavior: reduce ? "auto" : "smooth" });
}

function ensureId(element, prefix) {
  if (!element.id) element.id = `${prefix}-${Math.random().toString(36).slice(2, 9)}`;
  return element.id;
}

function describedBy(field, id, on) {
  const ids = new Set((field.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean));
  if (on) ids.add(id);
  else ids.delete(id);
  if (ids.size) field.setAttribute("aria-describedby", [...ids].join(" "));
  else field.removeAttribute("aria-describedby");
}

/** The form's fields called `names` (radio groups and checkboxes included), in the form's order. */
function fieldsNamed(form, names) {
  const wanted = new Set(names || []);
  return Array.from(form.elements).filter((element) => wanted.has(element.name) && element.type !== "hidden");
}

/**
 * Show one message in the form's alert (error) region, clearing the success one: the fields in error
 * are marked (aria-invalid, the message tied with aria-describedby) and the first is brought into view and
 * focused; without a field, the message itself is. The region is role="alert": screen readers announce it. With
 * two fields or more, an error summary at the top of the form lists them as links (components/errorSummary.js),
 * unless `summary` is false: a refused pair (e-mail and password) is one error, which its message says whole.
 */
export function showError(form, text, fields = [], { summary = true } = {}) {
  const region = form.querySelector("[data-form-error]");
  setText(region, text);
  setText(form.querySelector("[data-form-success]"), "");
  if (!region) return;
  const id = ensureId(region, "form-error");
  for (const marked of form.querySelectorAll("[data-marked-invalid]")) {
    marked.removeAttribute("aria-invalid");
    marked.removeAttribute("data-marked-invalid");
    describedBy(marked, id, false);
  }
  if (!text) {
    clearErrorSummary(form);
    return;
  }
  const invalid = fieldsNamed(form, fields);
  for (const field of invalid) {
    field.setAttribute("aria-invalid", "true");
    field.setAttribute("data-marked-invalid", "");
    describedBy(field, id, true);
  }
  // Several fields in error: a summary lists each as a link to it (a single one: the message says it all).
  if (summary) showErrorSummary(form, invalid.map((field) => ({ field })));
  else clearErrorSummary(form);
  const target = invalid[0] || region;
  if (!invalid[0]) region.tabIndex = -1;
  bringIntoView(target);
  target.focus({ preventScroll: true });
}

/** Show the success text where the visitor is looking, and leave it there. */
export function showSuccess(form, text) {
  showError(form, "");
  const region = form.querySelector("[data-form-success]");
  setText(region, text);
  if (!region || !text) return;
  region.tabIndex = -1;
  bringIntoView(region);
  region.focus({ preventScroll: true });
}

export function setBusy(form, busy) {
  for (const button of form.querySelectorAll("button[type=submit]")) button.disabled = busy;
  form.setAttribute("aria-busy", String(busy));
}

/** Show/hide buttons beside password fields (hidden until this script runs: they need it). */
export function enablePasswordToggles(root = document) {
  for (const button of root.querySelectorAll("[data-password-toggle]")) {
    const input = document.getElementById(button.dataset.passwordToggle);
    if (!input) continue;
    button.hidden = false;
    button.addEventListener("click", () => setPasswordVisible(button, input.type === "password"));
  }
}

export function setPasswordVisible(button, visible) {
  const input = document.getElementById(button.dataset.passwordToggle);
  input.type = visible ? "text" : "password";
  button.textContent = visible ? "Masquer" : "Afficher";
  button.setAttribute("aria-pressed", String(visible));
  button.setAttribute("aria-label", visible ? "Masquer le mot de passe" : "Afficher le mot de passe");
}

export function formValues(form) {
  const values = {};
  for (const element of form.elements) {
    if (!element.name || element.type === "file" || element.name === "csrfmiddlewaretoken") continue;
    values[element.name] = element.type === "checkbox" ? element.checked : element.value;
  }
  return values;
}

/** Wire the live "passwords differ" warning between two fields. */
export function watchMismatch(password, confirmation, output, message, compute) {
  const update = () => {
    const text = compute(password.value, confirmation.value, message);
    output.textContent = text;
    if (text) confirmation.setAttribute("aria-invalid", "true");
    else confirmation.removeAttribute("aria-invalid");
  };
  password.addEventListener("input", update);
  confirmation.addEventListener("input", update);
  return update;
}

export function redirectAfter(url, ms) {
  return window.setTimeout(() => window.location.assign(url), ms);
}

/**
 * After a success, go to `url` in `ms`, said in the page's polite live region `notice` (present, empty, since the
 * page loaded: a region created with its text is not always read). A "stay" button after it cancels the move for
 * whoever needs longer (WCAG 2.2.1); the page's own link to `url` stays either way. Returns the cancel function.
 */
export function redirectWithNotice(notice, { url, ms, messages }) {
  const timer = redirectAfter(url, ms);
  if (!notice) return () => window.clearTimeout(timer);
  notice.hidden = false;
  notice.textContent = messages.redirecting;
  const stay = document.createElement("button");
  stay.type = "button";
  stay.className = "button button-secondary button-small";
  stay.textContent = messages.stay;
  const cancel = () => {
    window.clearTimeout(timer);
    notice.textContent = messages.stayed;
    stay.remove();
  };
  stay.addEventListener("click", cancel);
  notice.after(stay);
  return cancel;
}
