import { afterEach, describe, expect, it, vi } from "vitest";
import { contactPayload, enhanceContactForm } from "./index.js";

function setup() {
  document.body.innerHTML = `
    <form data-contact-form data-sent="Message envoyé avec succès." data-failed="Erreur lors de l'envoi du message." novalidate>
      <div data-form-status></div>
      <input id="id_name" name="name" value="Léa"><input id="id_email" name="email" type="email" value="lea@example.fr">
      <input id="id_phone" name="phone" value=""><input id="id_subject" name="subject" value="Essai">
      <textarea id="id_message" name="message">Bonjour</textarea>
      <input id="id_followUp" name="followUp" type="checkbox" checked><input name="user_id" type="hidden" value="4">
      <button type="submit" data-submit>Envoyer</button>
    </form>`;
  const form = document.querySelector("form");
  enhanceContactForm(form);
  return form;
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => vi.restoreAllMocks());

describe("contact form", () => {
  it("builds the contact API's payload", () => {
    expect(contactPayload(setup())).toEqual({
      name: "Léa", email: "lea@example.fr", phone: "", subject: "Essai", message: "Bonjour", followUp: true, user_id: 4,
    });
  });

  it("shows success and clears the form on 201", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue({ ok: true, status: 201, text: () => Promise.resolve("{}") });
    const form = setup();
    form.elements.message.value = "Nouveau texte";
    form.dispatchEvent(new Event("submit", { cancelable: true }));
    await flush();
    await flush();
    expect(form.querySelector("[data-form-status]").textContent).toBe("Message envoyé avec succès.");
    expect(form.elements.message.value).toBe("Bonjour"); // reset() restores what the server rendered
  });

  it("shows the failure message and field errors", async () => {
    const body = JSON.stringify({ error: "x", errors: { email: ["Saisissez une adresse e-mail valide."] } });
    vi.spyOn(globalThis, "fetch").mockResolvedValue({ ok: false, status: 400, text: () => Promise.resolve(body) });
    const form = setup();
    form.dispatchEvent(new Event("submit", { cancelable: true }));
    await flush();
    await flush();
    expect(form.querySelector("[data-form-status]").textContent).toBe("Erreur lors de l'envoi du message.");
    expect(form.elements.email.getAttribute("aria-invalid")).toBe("true");
    // the field in error is focused and its message tied to it
    expect(document.activeElement).toBe(form.elements.email);
    expect(document.getElementById(form.elements.email.getAttribute("aria-describedby")).textContent).toBe("Saisissez une adresse e-mail valide.");
  });

  it("says to wait when the server answers 429 (docs/decisions.md 31)", async () => {
    const waitMessage = "Trop de demandes depuis votre connexion. Merci de réessayer dans quelques minutes.";
    const body = JSON.stringify({ error: waitMessage, message: waitMessage });
    vi.spyOn(globalThis, "fetch").mockResolvedValue({ ok: false, status: 429, text: () => Promise.resolve(body) });
    const form = setup();
    form.dispatchEvent(new Event("submit", { cancelable: true }));
    await flush();
    await flush();
    expect(form.querySelector("[data-form-status]").textContent).toBe(waitMessage);
  });
});

describe("contact form error summary", () => {
  it("lists every field the server refused, as links", async () => {
    const body = JSON.stringify({
      error: "x",
      errors: { email: ["Saisissez une adresse e-mail valide."], message: ["Ce champ est obligatoire."] },
    });
    vi.spyOn(globalThis, "fetch").mockResolvedValue({ ok: false, status: 400, text: () => Promise.resolve(body) });
    const form = setup();
    form.insertAdjacentHTML("afterbegin", '<label for="id_email">Email :</label><label for="id_message">Message :</label>');
    form.dispatchEvent(new Event("submit", { cancelable: true }));
    await flush();
    await flush();
    const summary = form.querySelector("[data-error-summary]");
    expect(summary.getAttribute("role")).toBe("alert");
    expect(summary.querySelector(".error-summary-title").textContent).toBe("2 champs à corriger :");
    expect([...summary.querySelectorAll("a")].map((a) => a.textContent)).toEqual([
      "Email : Saisissez une adresse e-mail valide.",
      "Message : Ce champ est obligatoire.",
    ]);
    expect(document.activeElement).toBe(form.elements.email);
  });
});
