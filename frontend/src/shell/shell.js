import { debounce } from "./debounce.js";
import { initConsent } from "./consent.js";

export const STICKY_AFTER_PX = 100;
export const FOOTER_TOLERANCE_PX = 50;
export const SCROLL_TOP_AFTER_PX = 200;
export const SCROLL_DEBOUNCE_MS = 100;

function initScroll() {
  const header = document.getElementById("site-header");
  const footer = document.getElementById("site-footer");
  const scrollTop = document.querySelector("[data-scroll-top]");
  const update = () => {
    const y = window.scrollY;
    if (header) header.classList.toggle("is-sticky", y > STICKY_AFTER_PX);
    if (footer) {
      const nearBottom = window.innerHeight + y >= document.documentElement.scrollHeight - FOOTER_TOLERANCE_PX;
      footer.classList.toggle("is-visible", nearBottom);
    }
    if (scrollTop) scrollTop.hidden = y <= SCROLL_TOP_AFTER_PX;
  };
  window.addEventListener("scroll", debounce(update, SCROLL_DEBOUNCE_MS), { passive: true });
  window.addEventListener("resize", debounce(update, SCROLL_DEBOUNCE_MS));
  if (scrollTop) {
    scrollTop.addEventListener("click", () => {
      const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      window.scrollTo({ top: 0, behavior: reduce ? "auto" : "smooth" });
      document.getElementById("contenu")?.focus({ preventScroll: true });
    });
  }
  document.documentElement.classList.add("js");
  update();
}

function initMobileMenu() {
  const toggle = document.querySelector("[data-menu-toggle]");
  const nav = document.getElementById("main-nav");
  if (!toggle || !nav) return;
  const setOpen = (open) => {
    toggle.setAttribute("aria-expanded", String(open));
    nav.classList.toggle("is-open", open);
  };
  toggle.addEventListener("click", () => setOpen(toggle.getAttribute("aria-expanded") !== "true"));
  nav.addEventListener("click", (event) => {
    if (event.target.closest("a")) setOpen(false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && nav.classList.contains("is-open")) {
      setOpen(false);
      toggle.focus();
    }
  });
}

function initAccountMenu() {
  const menu = document.querySelector("[data-account-menu]");
  if (!menu) return;
  const button = menu.querySelector(".account-menu-button");
  const items = () => Array.from(menu.querySelectorAll("[role=menuitem]"));
  const isOpen = () => button.getAttribute("aria-expanded") === "true";
  const setOpen = (open, focusFirst = false) => {
    button.setAttribute("aria-expanded", String(open));
    menu.classList.toggle("is-open", open);
    if (open && focusFirst) items()[0]?.focus();
  };
  // Hover opens it for a pointer passing by; a click (or Enter) pins it open until clicked again.
  let pinned = false;
  button.addEventListener("click", () => {
    pinned = !(isOpen() && pinned);
    setOpen(pinned);
  });
  menu.addEventListener("mouseenter", () => setOpen(true));
  menu.addEventListener("mouseleave", () => {
    if (!pinned) setOpen(false);
  });
  button.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      event.stopPropagation();
      setOpen(true, true);
    }
  });
  menu.addEventListener("keydown", (event) => {
    const list = items();
    const index = list.indexOf(document.activeElement);
    if (event.key === "Escape") {
      pinned = false;
      setOpen(false);
      button.focus();
    } else if (event.key === "ArrowDown" && index >= 0) {
      event.preventDefault();
      list[(index + 1) % list.length].focus();
    } else if (event.key === "ArrowUp" && index >= 0) {
      event.preventDefault();
      list[(index - 1 + list.length) % list.length].focus();
    }
  });
  menu.addEventListener("focusout", (event) => {
    if (event.relatedTarget && !menu.contains(event.relatedTarget)) {
      pinned = false;
      setOpen(false);
    }
  });
}

function initDjangoMessages() {
  const list = document.querySelector(".django-messages");
  if (!list) return;
  const messages = Array.from(list.querySelectorAll("li")).map((li) => ({
    text: li.textContent,
    level: li.dataset.level || "info",
  }));
  if (!messages.length) return;
  // react-toastify loads only when there is something to show.
  import(/* webpackChunkName: "toast" */ "../components/toast.jsx").then(({ notify }) => {
    for (const m of messages) notify(m.text, m.level.includes("error") ? "error" : m.level.includes("success") ? "success" : "info");
  });
}

/** A page the server sent back with a form in error (contact, room rental, the pages without JavaScript's help):
    the first field in error is brought into view and focused, so its message is read. */
export function focusServerErrors(root = document) {
  const field = root.querySelector('main form [aria-invalid="true"]');
  if (!field) return null;
  field.scrollIntoView?.({ block: "center" });
  field.focus({ preventScroll: true });
  return field;
}

/** The service worker and the offline banner (pwa.js) load once the page has: on every page, never before its paint. */
function initPwa() {
  if (!("serviceWorker" in navigator)) return;
  const load = () => import(/* webpackChunkName: "pwa" */ "./pwa.js").then((module) => module.initPwa());
  if (document.readyState === "complete") load();
  else window.addEventListener("load", load, { once: true });
}

export function initShell() {
  initScroll();
  initMobileMenu();
  initAccountMenu();
  initConsent();
  initDjangoMessages();
  focusServerErrors();
  initPwa();
}
