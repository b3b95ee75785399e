/* Toasts top-right, closing after 3 s (the product's setting, not the library's 5 s). One container per page,
   mounted on first use. */
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { ToastContainer, toast } from "react-toastify";
import "react-toastify/dist/ReactToastify.css";

export const TOAST_AUTO_CLOSE_MS = 3000;
let mounted = false;

function ensureContainer() {
  if (mounted) return;
  let root = document.getElementById("toast-root");
  if (!root) {
    root = document.createElement("div");
    root.id = "toast-root";
    document.body.appendChild(root);
  }
  flushSync(() => {
    createRoot(root).render(<ToastContainer position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} closeButton newestOnTop />);
  });
  mounted = true;
}

/** One toast per text at a time: the same message sent twice (a save and its echo, two clicks) shows once. */
export function notify(message, type = "info") {
  ensureContainer();
  const toastId = `${type}:${message}`;
  if (toast.isActive(toastId)) return toastId;
  const show = toast[type] || toast;
  return show(message, { toastId });
}
