import { beforeEach, describe, expect, it } from "vitest";
import { CONSENT_KEY } from "../../shell/consent.js";
import { initConsentSettings } from "./settings.js";

describe("consent settings", () => {
  beforeEach(() => {
    localStorage.clear();
    document.body.innerHTML = `
      <div data-consent-settings hidden>
        <strong data-consent-current></strong>
        <button data-consent-set="accepted">Accepter</button>
        <button data-consent-set="declined">Refuser</button>
      </div>`;
  });

  it("shows the current choice and lets the visitor withdraw it", () => {
    localStorage.setItem(CONSENT_KEY, "accepted");
    initConsentSettings();
    const box = document.querySelector("[data-consent-settings]");
    expect(box.hidden).toBe(false);
    expect(box.querySelector("[data-consent-current]").textContent).toBe("acceptés");
    box.querySelector('[data-consent-set="declined"]').click();
    expect(localStorage.getItem(CONSENT_KEY)).toBe("declined");
    expect(box.querySelector("[data-consent-current]").textContent).toBe("refusés");
  });

  it("says when nothing was chosen yet", () => {
    initConsentSettings();
    expect(document.querySelector("[data-consent-current]").textContent).toBe("aucun choix enregistré");
  });
});
