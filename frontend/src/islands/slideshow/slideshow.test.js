import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { initHeroVideo, initSlideshow } from "./slideshow.js";
import { applyFallback } from "../gallery/fallback.js";

function markup(count = 3) {
  const slides = Array.from({ length: count }, (_, i) => `<div class="slide" data-slide>${i}</div>`).join("");
  const dots = Array.from({ length: count }, (_, i) => `<button data-slide-to="${i}"></button>`).join("");
  document.body.innerHTML = `<div data-slideshow data-interval="3000" data-transition="500">
    <div data-slideshow-track>${slides}</div>
    <button data-slideshow-prev></button>${dots}<button data-slideshow-next></button>
    <button data-slideshow-toggle aria-pressed="false">Pause</button></div>`;
  return document.querySelector("[data-slideshow]");
}

describe("slideshow", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("advances every 3000 ms and loops", () => {
    const root = markup();
    initSlideshow(root, { reducedMotion: false });
    expect(root.dataset.index).toBe("0");
    vi.advanceTimersByTime(2999);
    expect(root.dataset.index).toBe("0");
    vi.advanceTimersByTime(1);
    expect(root.dataset.index).toBe("1");
    vi.advanceTimersByTime(6000);
    expect(root.dataset.index).toBe("0");
    expect(root.style.getPropertyValue("--slide-transition")).toBe("500ms");
  });

  it("pauses on hover and focus, resumes after", () => {
    const root = markup();
    initSlideshow(root, { reducedMotion: false });
    root.dispatchEvent(new Event("mouseenter"));
    vi.advanceTimersByTime(10000);
    expect(root.dataset.index).toBe("0");
    expect(root.dataset.state).toBe("paused");
    root.dispatchEvent(new Event("mouseleave"));
    root.dispatchEvent(new FocusEvent("focusin"));
    vi.advanceTimersByTime(10000);
    expect(root.dataset.index).toBe("0");
    root.dispatchEvent(new FocusEvent("focusout", { relatedTarget: null }));
    vi.advanceTimersByTime(3000);
    expect(root.dataset.index).toBe("1");
  });

  it("hides inactive slides from assistive technology and marks the current dot", () => {
    const root = markup();
    initSlideshow(root, { reducedMotion: false });
    root.querySelector("[data-slideshow-prev]").click();
    const slides = root.querySelectorAll("[data-slide]");
    expect(root.dataset.index).toBe("2");
    expect(slides[2].getAttribute("aria-hidden")).toBeNull();
    expect(slides[0].getAttribute("aria-hidden")).toBe("true");
    expect(root.querySelector('[data-slide-to="2"]').getAttribute("aria-current")).toBe("true");
  });

  it("does not autoplay under prefers-reduced-motion", () => {
    const root = markup();
    initSlideshow(root, { reducedMotion: true });
    vi.advanceTimersByTime(10000);
    expect(root.dataset.index).toBe("0");
    expect(root.querySelector("[data-slideshow-toggle]").getAttribute("aria-pressed")).toBe("true");
  });
});

describe("image fallback", () => {
  it("drops the sources and shows the default thumbnail with its alt text", () => {
    document.body.innerHTML = `<picture><source srcset="a.webp"><img src="a.jpg" srcset="a.jpg 1w" alt="x"></picture>`;
    const img = document.querySelector("img");
    applyFallback(img, { src: "/static/img/media/image-non-trouvee.svg", alt: "Image non trouvée" });
    expect(document.querySelector("source")).toBeNull();
    expect(img.getAttribute("srcset")).toBeNull();
    expect(img.alt).toBe("Image non trouvée");
    expect(img.getAttribute("src")).toBe("/static/img/media/image-non-trouvee.svg");
  });
});

describe("what waits for the page's load", () => {
  let readyState;
  beforeEach(() => {
    vi.useFakeTimers();
    readyState = "interactive";
    vi.spyOn(document, "readyState", "get").mockImplementation(() => readyState);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("the other slides' pictures: shown (and so fetched) once the page has loaded, or when the show moves", () => {
    const root = markup();
    initSlideshow(root, { reducedMotion: false });
    expect(root.classList.contains("has-all-slides")).toBe(false);
    readyState = "complete";
    window.dispatchEvent(new Event("load"));
    expect(root.classList.contains("has-all-slides")).toBe(true);

    readyState = "interactive";
    const early = markup();
    initSlideshow(early, { reducedMotion: false });
    vi.advanceTimersByTime(3000);
    expect(early.dataset.index).toBe("1");
    expect(early.classList.contains("has-all-slides")).toBe(true);
  });

  it("the background video's stream: asked for and played once the page has loaded", () => {
    document.body.innerHTML = `<section><video data-hero-video preload="none"></video><button data-hero-video-toggle hidden></button></section>`;
    const video = document.querySelector("video");
    const play = vi.fn(() => Promise.resolve());
    video.play = play;
    initHeroVideo(video, { reducedMotion: false });
    expect(play).not.toHaveBeenCalled();
    expect(video.preload).toBe("none");
    readyState = "complete";
    window.dispatchEvent(new Event("load"));
    expect(play).toHaveBeenCalledTimes(1);
    expect(video.preload).toBe("auto");
    expect(video.muted).toBe(true);
    expect(video.dataset.state).toBe("playing");
  });
});
