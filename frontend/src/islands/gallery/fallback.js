/* Broken image → the default thumbnail with alt text 'Image non trouvée'.
   Inline onerror handlers are forbidden by the CSP, so one capturing listener watches every img[data-fallback]. */

export function applyFallback(img, { src, alt }) {
  if (img.dataset.fallbackApplied) return;
  img.dataset.fallbackApplied = "true";
  const picture = img.parentElement && img.parentElement.tagName === "PICTURE" ? img.parentElement : null;
  if (picture) for (const source of picture.querySelectorAll("source")) source.remove();
  img.removeAttribute("srcset");
  img.removeAttribute("sizes");
  img.alt = alt;
  img.src = src;
}

export function initImageFallback(root, options) {
  if (!options.src) return;
  root.addEventListener(
    "error",
    (event) => {
      const img = event.target;
      if (img && img.tagName === "IMG" && img.hasAttribute("data-fallback")) applyFallback(img, options);
    },
    true,
  );
  // Images that failed before this script ran.
  for (const img of root.querySelectorAll("img[data-fallback]")) {
    if (img.complete && img.naturalWidth === 0 && img.getAttribute("src")) applyFallback(img, options);
  }
}
