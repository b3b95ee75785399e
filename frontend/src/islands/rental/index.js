/* Room rental: the "Réserver la salle" link opens the form in a native <dialog> (focus trapped, Escape closes,
   focus returns); without JavaScript it leads to the /rental-form page. On that page, "Annuler" goes back one page. */

export function initRentalModal(root = document) {
  const modal = root.querySelector("[data-rental-modal]");
  const opener = root.querySelector("[data-rental-open]");
  if (!modal || !opener || typeof modal.showModal !== "function") return;
  opener.addEventListener("click", (event) => {
    event.preventDefault();
    modal.showModal();
    modal.querySelector("input:not([type=hidden]), select, textarea")?.focus();
  });
  for (const button of modal.querySelectorAll("[data-rental-close]")) {
    button.addEventListener("click", () => modal.close());
  }
  modal.addEventListener("close", () => opener.focus());
}

export function initHistoryBack(root = document) {
  for (const link of root.querySelectorAll("[data-history-back]")) {
    link.addEventListener("click", (event) => {
      let sameSite = false;
      try {
        sameSite = Boolean(document.referrer) && new URL(document.referrer).origin === window.location.origin;
      } catch {
        sameSite = false;
      }
      if (sameSite && window.history.length > 1) {
        event.preventDefault();
        window.history.back();
      }
    });
  }
}

initRentalModal();
initHistoryBack();
