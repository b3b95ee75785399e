import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

const WRONG = "Email ou mot de passe incorrect.";
const BLANK = "Veuillez remplir tous les champs.";

beforeAll(async () => {
  document.body.innerHTML = `
    <form data-login-form novalidate>
      <p class="form-error" role="alert" data-form-error hidden></p>
      <p class="form-success" role="status" data-form-success hidden></p>
      <label for="login-email">Email</label><input id="login-email" name="email" type="email">
      <label for="login-password">Mot de passe</label><input id="login-password" name="password" type="password">
      <input id="login-remember" name="remember" type="checkbox">
      <button type="submit">Se connecter</button>
    </form>
    <form data-resend-form hidden><input type="hidden" name="email" data-resend-email></form>
    <div data-island="accounts-login" data-props="accounts-login-props"></div>
    <script id="accounts-login-props" type="application/json">${JSON.stringify({
      next: "/",
      messages: { blank: BLANK, other: "Erreur", network: "Réseau", resent: "Renvoyé" },
    })}</script>`;
  Element.prototype.scrollIntoView = vi.fn();
  await import("./index.js");
});

afterEach(() => vi.restoreAllMocks());

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function submit(email, password) {
  const form = document.querySelector("[data-login-form]");
  form.elements.email.value = email;
  form.elements.password.value = password;
  form.dispatchEvent(new Event("submit", { cancelable: true }));
  return form;
}

describe("login page", () => {
  it("shows only the credentials message for a wrong password: no summary of fields to correct", async () => {
    const body = JSON.stringify({ error: WRONG, message: WRONG });
    vi.spyOn(globalThis, "fetch").mockResolvedValue({ ok: false, status: 401, text: () => Promise.resolve(body) });
    const form = submit("emma@example.fr", "mauvais");
    await flush();
    await flush();
    expect(form.querySelector("[data-form-error]").textContent).toBe(WRONG);
    expect(form.querySelector("[data-form-error]").hidden).toBe(false);
    const summary = form.querySelector("[data-error-summary]");
    expect(summary === null || summary.hidden).toBe(true);
    expect(form.textContent).not.toContain("champs à corriger");
    // Both fields stay tied to the message, as the pair is what is wrong.
    expect(form.elements.email.getAttribute("aria-invalid")).toBe("true");
    expect(form.elements.password.getAttribute("aria-invalid")).toBe("true");
  });

  it("still lists the blank fields when both are empty", () => {
    const form = submit("", "");
    expect(form.querySelector("[data-form-error]").textContent).toBe(BLANK);
    expect(form.querySelector("[data-error-summary]").hidden).toBe(false);
  });
});
