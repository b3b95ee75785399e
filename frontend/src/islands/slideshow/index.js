/* Slideshow entry (home hero, image slider): vanilla JS, no React. */
import { initImageFallback } from "../gallery/fallback.js";
import { initHeroVideo, initSlideshow } from "./slideshow.js";

const start = () => {
  for (const root of document.querySelectorAll("[data-slideshow]")) {
    if (root.dataset.ready) continue;
    root.dataset.ready = "true";
    initSlideshow(root);
    initImageFallback(root, { src: root.dataset.fallbackSrc, alt: root.dataset.fallbackAlt });
  }
  for (const video of document.querySelectorAll("[data-hero-video]")) {
    if (video.dataset.ready) continue;
    video.dataset.ready = "true";
    initHeroVideo(video);
  }
};
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
