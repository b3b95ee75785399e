/* Forms that say what went wrong where the visitor looks: after a failed submit, the first field marked
   aria-invalid (or else the form's alert) is scrolled into view and focused. Shared by the React islands; the
   vanilla account pages do the same in components/accounts/dom.js. */
import { useEffect } from "react";

export { clearErrorSummary, showErrorSummary } from "./errorSummary.js";

/** Scroll `target` into view (centred, no animation for people who asked for less motion) and focus it. */
export function reveal(target) {
  if (!target) return null;
  if (!target.matches("input, select, textarea, button, a[href], [tabindex]")) target.tabIndex = -1;
  const reduce = typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  target.scrollIntoView?.({ block: "center", behavior: reduce ? "auto" : "smooth" });
  target.focus({ preventScroll: true });
  return target;
}

export function focusFirstError(root) {
  if (!root) return null;
  return reveal(root.querySelector('[aria-invalid="true"]') || root.querySelector('[role="alert"]'));
}

/** After each failed attempt (`attempt` changes: a submit counter, or the message the server sent back), focus the
   first error in `ref`, if there is one. Typing in a field changes neither, so focus is never pulled away. */
export function useFocusFirstError(ref, attempt) {
  useEffect(() => {
    if (attempt) focusFirstError(ref.current);
  }, [attempt]); // eslint-disable-line react-hooks/exhaustive-deps
}
