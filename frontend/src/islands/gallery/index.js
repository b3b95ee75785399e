/* Gallery page entry: vanilla JS, no React. */
import { initGallery } from "./gallery.js";

const start = () => {
  for (const root of document.querySelectorAll("[data-gallery]")) initGallery(root);
};
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
