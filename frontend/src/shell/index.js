/* The app shell, on every page, without React (SPEC.md 2.2-2.3, 4). */
import { initShell } from "./shell.js";

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", initShell);
} else {
  initShell();
}
