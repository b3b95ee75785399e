/* The app shell, on every page, without React: sticky header, footer near the bottom, menus, cookie consent. */
import { initShell } from "./shell.js";

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", initShell);
} else {
  initShell();
}
