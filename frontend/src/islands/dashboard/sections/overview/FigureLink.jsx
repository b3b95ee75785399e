/* A figure of the overview is a link to the list behind it: inside the dashboard it moves there without
   reloading (the dashboard follows the address on popstate), with its filter in the address (?when=full,
   ?filter=unpaid…) which the list reads. */
export function goTo(event, href) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  window.history.pushState({}, "", href);
  window.dispatchEvent(new PopStateEvent("popstate", { state: {} }));
  window.scrollTo?.(0, 0);
}

export function FigureLink({ href, children, className = "", label }) {
  return (
    <a href={href} className={className} onClick={(event) => goTo(event, href)} aria-label={label}>
      {children}
    </a>
  );
}
