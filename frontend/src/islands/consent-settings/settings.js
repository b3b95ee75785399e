/* Change or withdraw the cookie choice from the privacy policy (withdrawing must be as easy as giving). */
import { getConsent, setConsent } from "../../shell/consent.js";

export const LABELS = { accepted: "acceptés", declined: "refusés", null: "aucun choix enregistré" };

export function initConsentSettings(root = document) {
  const box = root.querySelector("[data-consent-settings]");
  if (!box) return;
  const current = box.querySelector("[data-consent-current]");
  const render = () => {
    current.textContent = LABELS[getConsent()] ?? LABELS.null;
  };
  box.addEventListener("click", (event) => {
    const choice = event.target.closest("[data-consent-set]")?.dataset.consentSet;
    if (!choice) return;
    setConsent(choice);
    const banner = document.getElementById("cookie-banner");
    if (banner) banner.hidden = true;
    render();
  });
  document.addEventListener("cookieconsent", render);
  render();
  box.hidden = false;
}
