/* The home page without React: the link bar switches sections in place, the flip cards turn.
   Without JavaScript the links reload the page with ?section=..., and the cards show both faces. */

export function initSectionTabs(root = document) {
  const nav = root.querySelector("[data-home-tabs]");
  if (!nav) return;
  const links = Array.from(nav.querySelectorAll("[data-section-link]"));
  const sections = Array.from(root.querySelectorAll("[data-section]"));
  const show = (key, { focus = false } = {}) => {
    for (const section of sections) section.hidden = section.dataset.section !== key;
    for (const link of links) {
      if (link.dataset.sectionLink === key) link.setAttribute("aria-current", "true");
      else link.removeAttribute("aria-current");
    }
    if (focus) {
      const heading = sections.find((s) => s.dataset.section === key)?.querySelector("h2");
      if (heading) {
        heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
      }
    }
  };
  nav.addEventListener("click", (event) => {
    const link = event.target.closest("[data-section-link]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button > 0) return;
    event.preventDefault();
    const key = link.dataset.sectionLink;
    show(key, { focus: true });
    const url = new URL(window.location.href);
    url.searchParams.set("section", key);
    url.hash = "";
    window.history.replaceState(null, "", url);
  });
}

export function initFlipCards(root = document) {
  for (const card of root.querySelectorAll("[data-flip-card]")) {
    const front = card.querySelector(".flip-card-front");
    const back = card.querySelector(".flip-card-back");
    const set = (flipped) => {
      card.setAttribute("aria-pressed", String(flipped));
      card.classList.toggle("is-flipped", flipped);
      front?.setAttribute("aria-hidden", String(flipped));
      back?.setAttribute("aria-hidden", String(!flipped));
    };
    set(false);
    card.addEventListener("click", () => set(card.getAttribute("aria-pressed") !== "true"));
  }
}

export function initHome(root = document) {
  initSectionTabs(root);
  initFlipCards(root);
}
