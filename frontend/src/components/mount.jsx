/* Mounts an island on every element the `{% island %}` tag rendered for it, with its json_script props. */
import { createRoot } from "react-dom/client";

export function readProps(element) {
  const source = element.dataset.props && document.getElementById(element.dataset.props);
  return source ? JSON.parse(source.textContent) : {};
}

export function mountIsland(name, Component) {
  const start = () => {
    for (const element of document.querySelectorAll(`[data-island="${name}"]`)) {
      if (element.dataset.mounted) continue;
      element.dataset.mounted = "true";
      createRoot(element).render(<Component {...readProps(element)} />);
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}
