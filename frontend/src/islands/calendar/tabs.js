/* The 'Calendrier' / 'Planning (image)' tabs: ARIA tabs with arrow keys, on the server-rendered panels. */
export function setupTabs(root) {
  if (!root) return;
  const tabs = Array.from(root.querySelectorAll('[role="tab"]'));
  const select = (tab, focus) => {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute("aria-selected", String(selected));
      other.tabIndex = selected ? 0 : -1;
      const panel = document.getElementById(other.getAttribute("aria-controls"));
      if (panel) panel.hidden = !selected;
    }
    if (focus) tab.focus();
    window.dispatchEvent(new Event("resize")); // the calendar re-measures when its panel shows again
  };
  tabs.forEach((tab, index) => {
    tab.addEventListener("click", () => select(tab, false));
    tab.addEventListener("keydown", (event) => {
      if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
      event.preventDefault();
      const next = tabs[(index + (event.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
      select(next, true);
    });
  });
}
