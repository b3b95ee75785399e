/* The tariff order modal's rules (SPEC.md 2.11, 5): members only, quantity at least 1, total to 2 decimals. */
export const MSG_LOGIN_REQUIRED = "Vous devez être connecté pour effectuer une réservation.";
export const MSG_NOT_ORDERABLE = "Cette offre ne se commande pas en ligne : contactez le studio pour la régler.";
export const MIN_QUANTITY = 1;
export const MAX_QUANTITY = 50;

/** A quantity typed by the member: a whole number between 1 and 50; anything else becomes 1. */
export function normalizeQuantity(value) {
  const n = Number.parseInt(String(value ?? "").trim(), 10);
  if (!Number.isFinite(n) || n < MIN_QUANTITY) return MIN_QUANTITY;
  return Math.min(n, MAX_QUANTITY);
}

/** Reads the tariff a 'Commander' / 'Acheter' button stands for (data attributes rendered by the public pages). */
export function tariffFromButton(button) {
  const { tariffId, tariffTitle, tariffPrice } = button.dataset;
  return {
    id: tariffId ? Number.parseInt(tariffId, 10) : null,
    title: tariffTitle || "",
    price: tariffPrice || "0",
  };
}
