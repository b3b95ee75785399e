/* A screen `width` CSS pixels wide, as the islands read it: window.innerWidth and matchMedia's max-width queries. */
export function screenWidth(width) {
  Object.defineProperty(window, "innerWidth", { configurable: true, value: width });
  window.matchMedia = (query) => {
    const max = Number((query.match(/max-width:\s*(\d+)px/) || [])[1]);
    return { matches: Number.isFinite(max) ? width <= max : false, media: query, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} };
  };
}
