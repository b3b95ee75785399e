import { initHome } from "./home.js";

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => initHome());
} else {
  initHome();
}
