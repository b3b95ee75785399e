/* The tariff order modal's rules: members only, quantity at least 1, total to 2 decimals. */
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

/* Subscriptions billed per period (docs/decisions.md 24), reduced rates, PayPal's subscription popup. */
export const MSG_REDUCED_CONFIRM =
  "Ce tarif réduit est réservé aux étudiant(e)s et aux demandeur(se)s d'emploi : cochez la case pour confirmer votre statut.";
export const MSG_REDUCED_STATUS = "Indiquez votre statut : étudiant(e) ou demandeur(se) d'emploi.";
export const MSG_PROOF_FAILED = "Le justificatif n'a pas pu être envoyé. Veuillez réessayer.";
export const MSG_PROOF_SENT = "Justificatif reçu.";
export const MSG_SUBSCRIPTION_APPROVED =
  "Abonnement approuvé chez PayPal : il apparaît sur votre profil dès que PayPal confirme le premier paiement.";
export const MSG_SUBSCRIPTION_FAILED = "L'abonnement PayPal n'a pas pu être créé. Veuillez réessayer.";
export const MSG_SUBSCRIPTION_CANCELLED = "Abonnement non souscrit : vous pouvez reprendre quand vous voulez.";

/** The create-order / subscription fields of a reduced-rate claim, or an error message when it is incomplete. */
export function reducedClaim(reduced) {
  if (!reduced) return { fields: {}, error: "" };
  if (!reduced.confirmed) return { fields: null, error: MSG_REDUCED_CONFIRM };
  if (!reduced.status) return { fields: null, error: MSG_REDUCED_STATUS };
  const fields = { reduced_status: reduced.status, reduced_confirmed: true };
  if (reduced.proofId) fields.reduced_proof_id = reduced.proofId;
  return { fields, error: "" };
}

/** "55,00 € par mois pendant 12 mois" from the offer the server describes. */
export function periodLabel(offer) {
  if (!offer?.per_period) return "";
  const every = offer.period_months === 1 ? "par mois" : offer.period_months === 3 ? "par trimestre" : `tous les ${offer.period_months} mois`;
  return `${every}, engagement de ${offer.periods_committed} échéance${offer.periods_committed > 1 ? "s" : ""}`;
}
