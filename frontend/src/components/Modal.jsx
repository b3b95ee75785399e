/* An accessible modal on the native <dialog>: the page behind is inert, Escape closes, and the focus goes back to
   what opened it however it closes (Escape, ×, a button of its own, a save) and however the parent closes it:
   open={false}, or no longer rendering it ({editing && <Modal open …/>}), where the dialog leaves the page with no
   close event and the browser would leave the focus on <body>. When the opener itself is gone (a deleted row), the
   focus goes to `returnFocus.current` if the parent set it, else to the opener's nearest focusable ancestor. */
import { useEffect, useId, useRef } from "react";

function focusable(element) {
  return element && element.isConnected && element.tabIndex >= 0 && !element.disabled && typeof element.focus === "function";
}

export default function Modal({ open, title, onClose, children, className = "", returnFocus }) {
  const ref = useRef(null);
  const titleId = useId();
  // The element focused when the modal opened, and its ancestors (for when it is gone by the time the modal closes).
  const opener = useRef(null);
  const openerAncestors = useRef([]);
  const latest = useRef({ open, onClose, returnFocus });
  latest.current = { open, onClose, returnFocus };

  const giveFocusBack = () => {
    const element = opener.current;
    if (!element) return;
    opener.current = null;
    const ancestors = openerAncestors.current;
    openerAncestors.current = [];
    const named = latest.current.returnFocus?.current;
    // The opener took the focus before, so it can again while on the page; a stand-in must be in the tab order.
    let target = focusable(named) ? named : null;
    if (!target && element.isConnected && !element.disabled) target = element;
    target ??= ancestors.find(focusable);
    target?.focus();
  };

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement && document.activeElement !== document.body ? document.activeElement : null;
      const ancestors = [];
      for (let node = opener.current?.parentElement; node && node !== document.body; node = node.parentElement) ancestors.push(node);
      openerAncestors.current = ancestors;
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", "");
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    const handleClose = () => {
      giveFocusBack();
      // Closed by the browser itself (it may skip the cancel event): tell the parent, which still thinks it open.
      if (latest.current.open) latest.current.onClose?.();
    };
    const handleCancel = (event) => {
      event.preventDefault();
      latest.current.onClose?.();
    };
    dialog.addEventListener("close", handleClose);
    dialog.addEventListener("cancel", handleCancel);
    return () => {
      dialog.removeEventListener("close", handleClose);
      dialog.removeEventListener("cancel", handleCancel);
      // Unmounted while open: the dialog has left the page without a close event.
      if (!dialog.isConnected) giveFocusBack();
    };
  }, []);

  return (
    <dialog ref={ref} className={`modal ${className}`} aria-labelledby={titleId}>
      {open && (
        <div className="modal-content">
          <div className="modal-header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="modal-close" onClick={onClose} aria-label="Fermer">
              ×
            </button>
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}
