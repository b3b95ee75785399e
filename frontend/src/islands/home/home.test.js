import { beforeEach, describe, expect, it } from "vitest";
import { initHome } from "./home.js";

describe("home page", () => {
  beforeEach(() => {
    document.body.innerHTML = `
      <nav data-home-tabs>
        <a href="?section=adresse" data-section-link="adresse" aria-current="true">Adresse</a>
        <a href="?section=cours" data-section-link="cours">Nos Cours</a>
      </nav>
      <section data-section="adresse"><h2>Nous trouver</h2></section>
      <section data-section="cours" hidden><h2>Nos cours</h2></section>
      <button data-flip-card aria-pressed="false"><span class="flip-card-front">A</span><span class="flip-card-back">B</span></button>`;
    initHome();
  });

  it("switches sections in place and keeps the choice in the address", () => {
    document.querySelector('[data-section-link="cours"]').click();
    expect(document.querySelector('[data-section="cours"]').hidden).toBe(false);
    expect(document.querySelector('[data-section="adresse"]').hidden).toBe(true);
    expect(document.querySelector('[data-section-link="cours"]').getAttribute("aria-current")).toBe("true");
    expect(document.querySelector('[data-section-link="adresse"]').hasAttribute("aria-current")).toBe(false);
    expect(window.location.search).toBe("?section=cours");
  });

  it("flips a card and back", () => {
    const card = document.querySelector("[data-flip-card]");
    card.click();
    expect(card.getAttribute("aria-pressed")).toBe("true");
    expect(card.querySelector(".flip-card-back").getAttribute("aria-hidden")).toBe("false");
    card.click();
    expect(card.getAttribute("aria-pressed")).toBe("false");
    expect(card.querySelector(".flip-card-front").getAttribute("aria-hidden")).toBe("false");
  });
});
