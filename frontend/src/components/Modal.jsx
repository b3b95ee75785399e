/* An accessible modal on the native <dialog>: the page behind is inert, Escape closes,
   focus goes back to what opened it. */
import { useEffect, useId, useRef } from "react";

export default function Modal({ open, title, onClose, children, className = "" }) {
  const ref = useRef(null);
  const titleId = useId();
  const opener = useRef(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
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
      if (opener.current && typeof opener.current.focus === "function") opener.current.focus();
    };
    const handleCancel = (event) => {
      event.preventDefault();
      onClose?.();
    };
    dialog.addEventListener("close", handleClose);
    dialog.addEventListener("cancel", handleCancel);
    return () => {
      dialog.removeEventListener("close", handleClose);
      dialog.removeEventListener("cancel", handleCancel);
    };
  }, [onClose]);

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
