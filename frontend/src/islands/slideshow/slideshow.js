/* The home slideshow and the image slider: autoplay every 3000 ms, 500 ms transition, one
   slide at a time, dots, infinite loop; pauses on hover or focus, and for good with the Pause button or under
   prefers-reduced-motion; arrows, dots and the arrow keys work from the keyboard. */

function prefersReducedMotion() {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Runs `fn` once the page has loaded (at once if it has). What is not the first screen's paint waits for it: the other
    slides' pictures and the background video's stream would share a phone's bandwidth with the poster and the first
    slide, the page's largest paint. */
export function whenLoaded(fn) {
  if (document.readyState === "complete") fn();
  else window.addEventListener("load", fn, { once: true });
}

export function initSlideshow(root, { reducedMotion = prefersReducedMotion() } = {}) {
  const slides = [...root.querySelectorAll("[data-slide]")];
  const dots = [...root.querySelectorAll("[data-slide-to]")];
  const track = root.querySelector("[data-slideshow-track]");
  const toggle = root.querySelector("[data-slideshow-toggle]");
  const interval = Number(root.dataset.interval) || 3000;
  const transition = Number(root.dataset.transition) || 500;
  root.style.setProperty("--slide-transition", `${transition}ms`);
  const state = { index: 0, hovered: false, focused: false, stopped: reducedMotion, timer: null };
  // The other slides' pictures are hidden (media.css), so not fetched, until then.
  const revealAll = () => root.classList.add("has-all-slides");
  whenLoaded(revealAll);

  const show = (next, { first = false } = {}) => {
    if (!first) revealAll();
    state.index = ((next % slides.length) + slides.length) % slides.length; // infinite in both directions
    slides.forEach((slide, i) => {
      const active = i === state.index;
      slide.classList.toggle("is-active", active);
      if (active) {
        slide.removeAttribute("aria-hidden");
        slide.inert = false;
      } else {
        slide.setAttribute("aria-hidden", "true");
        slide.inert = true;
      }
    });
    dots.forEach((dot, i) => {
      if (i === state.index) dot.setAttribute("aria-current", "true");
      else dot.removeAttribute("aria-current");
    });
    root.dataset.index = String(state.index);
  };

  const playing = () => slides.length > 1 && !state.hovered && !state.focused && !state.stopped && !document.hidden;

  const schedule = () => {
    window.clearTimeout(state.timer);
    state.timer = null;
    const on = playing();
    root.dataset.state = on ? "playing" : "paused";
    if (track) track.setAttribute("aria-live", on ? "off" : "polite");
    if (on) {
      state.timer = window.setTimeout(() => {
        show(state.index + 1);
        schedule();
      }, interval);
    }
  };

  const go = (next) => {
    show(next);
    schedule(); // a manual move restarts the countdown
  };

  if (slides.length > 1) {
    root.classList.add("is-enhanced");
    root.querySelector("[data-slideshow-prev]")?.addEventListener("click", () => go(state.index - 1));
    root.querySelector("[data-slideshow-next]")?.addEventListener("click", () => go(state.index + 1));
    dots.forEach((dot) => dot.addEventListener("click", () => go(Number(dot.dataset.slideTo))));
    toggle?.addEventListener("click", () => {
      state.stopped = !state.stopped;
      toggle.setAttribute("aria-pressed", String(state.stopped));
      toggle.textContent = state.stopped ? "Lecture" : "Pause";
      schedule();
    });
    if (toggle && state.stopped) {
      toggle.setAttribute("aria-pressed", "true");
      toggle.textContent = "Lecture";
    }
    root.addEventListener("mouseenter", () => {
      state.hovered = true;
      schedule();
    });
    root.addEventListener("mouseleave", () => {
      state.hovered = false;
      schedule();
    });
    root.addEventListener("focusin", () => {
      state.focused = true;
      schedule();
    });
    root.addEventListener("focusout", (event) => {
      if (root.contains(event.relatedTarget)) return;
      state.focused = false;
      schedule();
    });
    root.addEventListener("keydown", (event) => {
      const moves = { ArrowLeft: state.index - 1, ArrowRight: state.index + 1, Home: 0, End: slides.length - 1 };
      if (!(event.key in moves)) return;
      event.preventDefault();
      go(moves[event.key]);
    });
    document.addEventListener("visibilitychange", schedule);
  }
  show(0, { first: true });
  schedule();
  return {
    get index() {
      return state.index;
    },
    go,
  };
}

/* The home background video: muted and looping, it plays only when motion is welcome; a button pauses it. */
export function initHeroVideo(video, { reducedMotion = prefersReducedMotion() } = {}) {
  const toggle = video.parentElement?.querySelector("[data-hero-video-toggle]");
  if (reducedMotion) {
    video.removeAttribute("autoplay");
    video.dataset.state = "still";
    return;
  }
  const setLabel = () => {
    if (!toggle) return;
    toggle.hidden = false;
    toggle.setAttribute("aria-pressed", String(video.paused));
    toggle.textContent = video.paused ? "Lire la vidéo" : "Mettre la vidéo en pause";
  };
  video.muted = true;
  video.addEventListener("play", setLabel);
  video.addEventListener("pause", setLabel);
  toggle?.addEventListener("click", () => (video.paused ? video.play() : video.pause()));
  // The poster shows meanwhile.
  whenLoaded(() => {
    video.preload = "auto";
    const attempt = video.play();
    if (attempt && typeof attempt.then === "function") attempt.then(setLabel, setLabel);
    video.dataset.state = "playing";
  });
}
