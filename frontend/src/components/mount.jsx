/* Mounts an island on every element the `{% island %}` tag rendered for it, with its json_script props.
   `{ sliced: true }`: the first render is a transition, which React renders in slices, letting the browser answer taps
   and paint between them, instead of one long task (the calendar's first render took 150 ms of a phone's main thread
   in one go). Other islands render at once: slicing a small render only puts its first paint later. */
import { startTransition } from "react";
import { createRoot } from "react-dom/client";
import { readProps } from "./props.js";

export { readProps };

export function mountIsland(name, Component, { sliced = false } = {}) {
  const start = () => {
    for (const element of document.querySelectorAll(`[data-island="${name}"]`)) {
      if (element.dataset.mounted) continue;
      element.dataset.mounted = "true";
      const root = createRoot(element);
      const props = readProps(element);
      if (sliced) startTransition(() => root.render(<Component {...props} />));
      else root.render(<Component {...props} />);
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}
