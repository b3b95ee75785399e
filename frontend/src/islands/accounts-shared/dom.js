/* Small DOM helpers shared by the account pages (vanilla: these pages load no React). */

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

/** Show one message in the form's alert (error) or status (success) region, clearing the other. */
export function showError(form, text) {
  setText(form.querySelector("[data-form-error]"), text);
  setText(form.querySelector("[data-form-success]"), "");
}

export function showSuccess(form, text) {
  setText(form.querySelector("[data-form-error]"), "");
  setText(form.querySelector("[data-form-success]"), text);
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
  window.setTimeout(() => window.location.assign(url), ms);
}
