import { initConsentSettings } from "./settings.js";

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => initConsentSettings());
} else {
  initConsentSettings();
}
