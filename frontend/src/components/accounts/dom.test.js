import { afterEach, describe, expect, it, vi } from "vitest";
import { showError, showSuccess } from "./dom.js";
import { registrationError, registrationErrorFields, serverErrorFields } from "./rules.js";

function form() {
  document.body.innerHTML = `
    <form>
      <p data-form-error role="alert" hidden></p>
      <p data-form-success role="status" hidden></p>
      <input name="last_name"><input name="first_name"><input name="phone" aria-describedby="phone-help"><span id="phone-help"></span>
      <input name="email"><input name="password" type="password">
    </form>`;
  return document.querySelector("form");
}

afterEach(() => {
  document.body.innerHTML = "";
  vi.restoreAllMocks();
});

describe("form feedback", () => {
  it("marks the fields in error, ties them to the message and focuses the first one, in view", () => {
    const f = form();
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    showError(f, "❌ Le numéro de téléphone doit contenir 10 chiffres.", ["phone"]);
    const phone = f.elements.phone;
    const region = f.querySelector("[data-form-error]");
    expect(region.hidden).toBe(false);
    expect(region.getAttribute("role")).toBe("alert");
    expect(phone.getAttribute("aria-invalid")).toBe("true");
    expect(phone.getAttribute("aria-describedby").split(" ")).toEqual(["phone-help", region.id]);
    expect(document.activeElement).toBe(phone);
    expect(scrolled).toHaveBeenCalled();

    showError(f, "");
    expect(phone.hasAttribute("aria-invalid")).toBe(false);
    expect(phone.getAttribute("aria-describedby")).toBe("phone-help");
    expect(region.hidden).toBe(true);
  });

  it("focuses the message itself when no field is named, and keeps a success message in view", () => {
    const f = form();
    Element.prototype.scrollIntoView = vi.fn();
    showError(f, "Erreur serveur.");
    expect(document.activeElement).toBe(f.querySelector("[data-form-error]"));
    showSuccess(f, "Inscription réussie ! Vérifiez votre boîte mail.");
    const success = f.querySelector("[data-form-success]");
    expect(success.hidden).toBe(false);
    expect(document.activeElement).toBe(success);
    expect(f.querySelector("[data-form-error]").hidden).toBe(true);
  });

  it("knows which registration fields a message is about", () => {
    const messages = { required: "R", phone: "P", email: "E", postalCode: "C", passwordShort: "S", passwordsDiffer: "D", cgu: "G" };
    const values = { last_name: "", first_name: "Chloé", email: "", password: "", phone: "06" };
    const message = registrationError(values, messages);
    expect(registrationErrorFields(values, messages, message)).toEqual(["last_name", "email", "password"]);
    expect(registrationErrorFields(values, messages, "P")).toEqual(["phone"]);
    expect(serverErrorFields({ data: { error: "x", field: "email" } })).toEqual(["email"]);
    expect(serverErrorFields({ data: { errors: { phone: ["x"] } } })).toEqual(["phone"]);
  });
});

describe("error summary on account forms", () => {
  it("lists the fields when several are in error, and goes with the error", () => {
    document.body.innerHTML = `
      <form>
        <p data-form-error role="alert" hidden></p>
        <label for="r-last">Nom *</label><input id="r-last" name="last_name">
        <label for="r-first">Prénom *</label><input id="r-first" name="first_name">
        <label for="r-phone">Téléphone *</label><input id="r-phone" name="phone">
      </form>`;
    const f = document.querySelector("form");
    Element.prototype.scrollIntoView = vi.fn();
    showError(f, "Veuillez remplir tous les champs obligatoires.", ["last_name", "first_name"]);
    const summary = f.querySelector("[data-error-summary]");
    expect(summary.hidden).toBe(false);
    expect(summary.querySelector(".error-summary-title").textContent).toBe("2 champs à corriger :");
    expect([...summary.querySelectorAll("a")].map((a) => a.textContent)).toEqual(["Nom", "Prénom"]);
    expect(document.activeElement).toBe(f.elements.last_name);

    showError(f, "Le numéro de téléphone doit contenir 10 chiffres.", ["phone"]);
    expect(summary.hidden).toBe(true);
    showError(f, "Veuillez remplir tous les champs obligatoires.", ["last_name", "first_name"]);
    showSuccess(f, "");
    expect(summary.hidden).toBe(true);
  });
});

describe("redirect after a success to /login", () => {
  const messages = { redirecting: "Redirection dans 2 secondes.", stay: "Rester sur cette page", stayed: "Redirection annulée." };

  it("goes to the page after the delay, said in the live region, and a button cancels it", async () => {
    const { redirectWithNotice } = await import("./dom.js");
    vi.useFakeTimers();
    const assign = vi.fn();
    vi.stubGlobal("location", { assign });
    document.body.innerHTML = `<p role="status" data-redirect-notice></p>`;
    const notice = document.querySelector("[data-redirect-notice]");
    redirectWithNotice(notice, { url: "/login", ms: 2000, messages });
    expect(notice.textContent).toBe(messages.redirecting);
    vi.advanceTimersByTime(1999);
    expect(assign).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(assign).toHaveBeenCalledWith("/login");

    assign.mockClear();
    document.body.innerHTML = `<p role="status" data-redirect-notice></p>`;
    const again = document.querySelector("[data-redirect-notice]");
    redirectWithNotice(again, { url: "/login", ms: 2000, messages });
    const stay = document.querySelector("button");
    expect(stay.textContent).toBe(messages.stay);
    stay.click();
    vi.advanceTimersByTime(10_000);
    expect(assign).not.toHaveBeenCalled();
    expect(again.textContent).toBe(messages.stayed);
    expect(document.querySelector("button")).toBeNull();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
});
