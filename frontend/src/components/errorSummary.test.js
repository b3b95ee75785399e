import { afterEach, describe, expect, it, vi } from "vitest";
import { clearErrorSummary, fieldLabel, showErrorSummary, summaryTitle } from "./errorSummary.js";
import * as feedback from "./formFeedback.js";

function form() {
  document.body.innerHTML = `
    <form>
      <p data-form-error role="alert">Erreur</p>
      <label for="f-last">Nom *</label><input id="f-last" name="last_name">
      <label for="f-first">Prénom :</label><input id="f-first" name="first_name">
      <input id="f-email" name="email" aria-label="Adresse email">
      <input name="nameless">
    </form>`;
  return document.querySelector("form");
}

afterEach(() => {
  document.body.innerHTML = "";
  vi.restoreAllMocks();
});

describe("error summary", () => {
  it("says how many fields are to be corrected, in French", () => {
    expect(summaryTitle(2)).toBe("2 champs à corriger :");
    expect(summaryTitle(3)).toBe("3 champs à corriger :");
  });

  it("names a field by its label, without the required star or colon", () => {
    const f = form();
    expect(fieldLabel(f.elements.last_name)).toBe("Nom");
    expect(fieldLabel(f.elements.first_name)).toBe("Prénom");
    expect(fieldLabel(f.elements.email)).toBe("Adresse email");
  });

  it("lists each field in error as a link to it, announced, at the top of the form", () => {
    const f = form();
    const summary = showErrorSummary(f, [
      { field: f.elements.last_name },
      { field: f.elements.email, message: "Saisissez une adresse e-mail valide." },
    ]);
    expect(f.firstElementChild).toBe(summary);
    expect(summary.getAttribute("role")).toBe("alert");
    expect(summary.hidden).toBe(false);
    const title = summary.querySelector(".error-summary-title");
    expect(title.textContent).toBe("2 champs à corriger :");
    expect(summary.getAttribute("aria-labelledby")).toBe(title.id);
    const links = [...summary.querySelectorAll("a")];
    expect(links.map((a) => a.textContent)).toEqual(["Nom", "Adresse email : Saisissez une adresse e-mail valide."]);
    expect(links.map((a) => a.getAttribute("href"))).toEqual(["#f-last", "#f-email"]);
  });

  it("a link brings its field into view and focuses it", () => {
    const f = form();
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    const summary = showErrorSummary(f, [{ field: f.elements.last_name }, { field: f.elements.first_name }]);
    const click = new MouseEvent("click", { bubbles: true, cancelable: true });
    summary.querySelectorAll("a")[1].dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(f.elements.first_name);
    expect(scrolled).toHaveBeenCalled();
  });

  it("shows nothing for a single field, and clears itself", () => {
    const f = form();
    showErrorSummary(f, [{ field: f.elements.last_name }, { field: f.elements.first_name }]);
    expect(showErrorSummary(f, [{ field: f.elements.last_name }])).toBe(null);
    expect(f.querySelector("[data-error-summary]").hidden).toBe(true);
    showErrorSummary(f, [{ field: f.elements.last_name }, { field: f.elements.first_name }]);
    clearErrorSummary(f);
    expect(f.querySelector("[data-error-summary]").hidden).toBe(true);
    expect(f.querySelectorAll("[data-error-summary]").length).toBe(1);
  });

  it("gives a field without an id one, so its link works", () => {
    const f = form();
    const summary = showErrorSummary(f, [{ field: f.elements.nameless }, { field: f.elements.last_name }]);
    expect(f.elements.nameless.id).not.toBe("");
    expect(summary.querySelector("a").getAttribute("href")).toBe(`#${f.elements.nameless.id}`);
  });

  it("is shared through formFeedback.js for the React islands", () => {
    expect(feedback.showErrorSummary).toBe(showErrorSummary);
    expect(feedback.clearErrorSummary).toBe(clearErrorSummary);
  });
});
