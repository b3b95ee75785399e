/* The gallery, photos and videos: each item opens an accessible modal on the native <dialog> (Escape closes it, focus
   returns to the item). Video-host players load only after cookie consent (docs/decisions.md 18). */
import { getConsent, loadEmbeds } from "../../shell/consent.js";
import { initImageFallback } from "./fallback.js";

export function initGallery(root) {
  const dialog = root.querySelector("[data-gallery-dialog]");
  const body = dialog && dialog.querySelector("[data-gallery-body]");
  const title = dialog && dialog.querySelector("[data-gallery-title]");
  const closeButton = dialog && dialog.querySelector("[data-gallery-close]");
  initImageFallback(root, { src: root.dataset.fallbackSrc, alt: root.dataset.fallbackAlt });
  if (!dialog || !body) return;
  let opener = null;

  const open = (link) => {
    const template = document.getElementById(link.dataset.galleryOpen);
    if (!template) return false;
    opener = link;
    title.textContent = link.dataset.title || "";
    body.replaceChildren(template.content.cloneNode(true));
    if (getConsent() === "accepted") loadEmbeds(body);
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
    closeButton.focus();
    return true;
  };

  root.addEventListener("click", (event) => {
    const link = event.target.closest("[data-gallery-open]");
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (open(link)) event.preventDefault();
  });
  closeButton.addEventListener("click", () => dialog.close());
  // A click on the backdrop (outside the content box) closes too.
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) dialog.close();
  });
  dialog.addEventListener("close", () => {
    body.replaceChildren(); // stops a playing video or player
    if (opener) opener.focus();
    opener = null;
  });
  // Until this point a click follows the item's plain link (the page works without script); tests wait on it.
  root.dataset.galleryReady = "true";
}
