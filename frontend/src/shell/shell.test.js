import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { debounce } from "./debounce.js";
import { CONSENT_KEY, getConsent, initConsent, loadEmbeds, setConsent } from "./consent.js";
import { focusServerErrors } from "./shell.js";

describe("debounce", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("calls once after the wait, with the last arguments", () => {
    const fn = vi.fn();
    const d = debounce(fn, 100);
    d(1);
    d(2);
    vi.advanceTimersByTime(99);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledWith(2);
  });
});

describe("cookie consent", () => {
  beforeEach(() => {
    localStorage.clear();
    document.body.innerHTML = `
      <section id="cookie-banner" hidden><button data-consent="accepted">Accepter</button><button data-consent="declined">Refuser</button></section>
      <div data-consent-embed data-src="https://maps.example/embed" data-title="Carte"><p>placeholder</p></div>`;
  });

  it("shows the banner when nothing is stored and remembers a refusal without loading embeds", () => {
    initConsent();
    const banner = document.getElementById("cookie-banner");
    expect(banner.hidden).toBe(false);
    banner.querySelector('[data-consent="declined"]').click();
    expect(localStorage.getItem(CONSENT_KEY)).toBe("declined");
    expect(banner.hidden).toBe(true);
    expect(document.querySelector("iframe")).toBeNull();
  });

  it("keeps room below the page while the banner shows, so it covers no button", () => {
    const banner = document.getElementById("cookie-banner");
    banner.getBoundingClientRect = () => ({ height: 96 });
    initConsent();
    expect(document.body.classList.contains("has-cookie-banner")).toBe(true);
    expect(document.body.style.getPropertyValue("--cookie-banner-h")).toBe("96px");
    banner.querySelector('[data-consent="accepted"]').click();
    expect(document.body.classList.contains("has-cookie-banner")).toBe(false);
    expect(document.body.style.getPropertyValue("--cookie-banner-h")).toBe("");
  });

  it("loads embeds once accepted", () => {
    setConsent("accepted");
    expect(getConsent()).toBe("accepted");
    loadEmbeds();
    const iframe = document.querySelector("iframe");
    expect(iframe.src).toBe("https://maps.example/embed");
    expect(iframe.title).toBe("Carte");
  });
});

describe("pictures hosted elsewhere", () => {
  it("keep their address until consent, then load it", () => {
    document.body.innerHTML = `<img src="/static/placeholder.svg" data-consent-src="https://photos.example/a.jpg" alt="Photo">`;
    const img = document.querySelector("img");
    expect(img.getAttribute("src")).toBe("/static/placeholder.svg");
    loadEmbeds();
    expect(img.getAttribute("src")).toBe("https://photos.example/a.jpg");
    expect(img.hasAttribute("data-consent-src")).toBe(false);
  });
});

describe("forms the server sent back in error", () => {
  it("focus the first field in error", () => {
    document.body.innerHTML = `<main><form><input name="name"><input name="email" aria-invalid="true"><input name="phone" aria-invalid="true"></form></main>`;
    Element.prototype.scrollIntoView = vi.fn();
    expect(focusServerErrors()).toBe(document.querySelector('[name="email"]'));
    expect(document.activeElement).toBe(document.querySelector('[name="email"]'));
  });

  it("leave the focus alone on a page without errors", () => {
    document.body.innerHTML = `<main><form><input name="name"></form></main>`;
    expect(focusServerErrors()).toBeNull();
  });
});
