/* Cookie consent (docs/decisions.md 18): `cookieConsent` is "accepted" or "declined".
   Third-party embeds ([data-consent-embed]) load only once it is "accepted". */
export const CONSENT_KEY = "cookieConsent";

export function getConsent() {
  try {
    return window.localStorage.getItem(CONSENT_KEY);
  } catch {
    return null;
  }
}

export function setConsent(value) {
  try {
    window.localStorage.setItem(CONSENT_KEY, value);
  } catch {
    /* storage disabled: the choice lasts for this page only */
  }
  document.dispatchEvent(new CustomEvent("cookieconsent", { detail: value }));
}

export function loadEmbeds(root = document) {
  // Pictures and videos hosted elsewhere wait for consent too: their address sits in data-consent-src.
  for (const element of root.querySelectorAll("[data-consent-src]")) {
    element.src = element.dataset.consentSrc;
    element.removeAttribute("data-consent-src");
    if (element.tagName === "SOURCE") element.parentElement?.load?.();
  }
  for (const box of root.querySelectorAll("[data-consent-embed]:not([data-loaded])")) {
    const iframe = document.createElement("iframe");
    iframe.src = box.dataset.src;
    iframe.title = box.dataset.title || "Contenu externe";
    iframe.loading = "lazy";
    iframe.allow = "fullscreen; picture-in-picture";
    iframe.referrerPolicy = "strict-origin-when-cross-origin";
    box.replaceChildren(iframe);
    box.dataset.loaded = "true";
  }
}

/** While the banner shows, the page keeps room for it at the bottom so it never covers a form's buttons. */
export function reserveBannerRoom(banner) {
  const body = document.body;
  const update = () => {
    if (banner.hidden) {
      body.classList.remove("has-cookie-banner");
      body.style.removeProperty("--cookie-banner-h");
      window.removeEventListener("resize", update);
      return;
    }
    body.classList.add("has-cookie-banner");
    body.style.setProperty("--cookie-banner-h", `${Math.ceil(banner.getBoundingClientRect().height)}px`);
  };
  window.addEventListener("resize", update);
  update();
  return update;
}

export function initConsent() {
  const banner = document.getElementById("cookie-banner");
  const consent = getConsent();
  let updateRoom = () => {};
  if (banner && !consent) {
    banner.hidden = false;
    updateRoom = reserveBannerRoom(banner);
  }
  const hideBanner = () => {
    if (!banner) return;
    banner.hidden = true;
    updateRoom();
  };
  if (banner) {
    banner.addEventListener("click", (event) => {
      const choice = event.target.closest("[data-consent]")?.dataset.consent;
      if (!choice) return;
      setConsent(choice);
      hideBanner();
    });
  }
  document.addEventListener("click", (event) => {
    if (event.target.closest("[data-consent-accept]")) {
      setConsent("accepted");
      hideBanner();
    }
  });
  document.addEventListener("cookieconsent", (event) => {
    if (event.detail === "accepted") loadEmbeds();
  });
  if (consent === "accepted") loadEmbeds();
}
