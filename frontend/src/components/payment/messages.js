/* The payment widget's French messages (the product's wording) and the small helpers it shares with the order modal. */
import { MSG_NETWORK } from "../api.js";
import { toAmount } from "../format.js";

export const MSG_CALENDAR_SUCCESS = "✅ Paiement réussi ! Un Email avec votre recu vous a été envoyé";
export const MSG_CALENDAR_FAILURE = "❌ Erreur de paiement";
export const MSG_TARIFF_SUCCESS = "Paiement réussi ! Un email de confirmation avec votre reçu vous a été envoyé.";
export const MSG_TARIFF_FAILURE = "Une erreur est survenue lors du paiement. Veuillez réessayer.";
export const MSG_DEPOSIT_SUCCESS = "Acompte payé ! Un email de confirmation avec votre reçu vous a été envoyé.";
export const MSG_GIFT_CARD_SUCCESS = "Carte cadeau payée ! Votre reçu vous a été envoyé par e-mail et la carte partira le jour choisi.";
export const MSG_CREATE_FAILURE = "Erreur lors de la création de la commande";
export const MSG_CANCELLED = "Paiement annulé. Vous pouvez le reprendre quand vous voulez.";
export const MSG_DEMO_MODE =
  "Mode démonstration : aucun paiement réel n'est effectué. Les boutons ci-dessous simulent la fenêtre de paiement.";
export const MSG_SCRIPT_PENDING = "Chargement du module de paiement PayPal…";
export const MSG_SCRIPT_REJECTED = "Le module de paiement PayPal n'a pas pu être chargé. Vérifiez votre connexion puis réessayez.";
export const MSG_PREPARING = "Préparation du paiement…";
export const MSG_CAPTURING = "Validation du paiement en cours…";
/* The terms of sale (docs/decisions.md 47): accepted before buying a card, a subscription or a deposit; a card or a
   subscription may start at once, within the 14 days of the withdrawal right (L221-25); a dated class has none. */
export const MSG_TERMS_REQUIRED = "Veuillez accepter les conditions générales de vente.";
export const MSG_IMMEDIATE_START =
  "Je demande que ma carte ou mon abonnement commence avant la fin du délai de rétractation de 14 jours, et je reconnais que les séances suivies resteront dues si je me rétracte.";
export const MSG_WITHDRAWAL_RIGHT =
  "Vous disposez de 14 jours pour vous rétracter : « Exercer mon droit de rétractation » sur votre profil.";
export const MSG_NO_WITHDRAWAL = "Pas de droit de rétractation pour une séance à date fixe.";

/** Whether this purchase asks for the terms (a card, a subscription, a deposit) and offers the immediate start. */
export function termsAsked(order) {
  return order?.kind === "tariff" || order?.kind === "deposit" || order?.kind === "gift_card";
}

// A simulated card that pays the purchase and is refused at the next periods (to try the unpaid path).
export const MSG_DECLINES_LATER = "Payer, puis carte refusée aux échéances suivantes (simulation)";
export { MSG_NETWORK };

/* Choosing how to pay, when the studio offers more than one provider (config.providers, first = default). */
export const MSG_PROVIDER_LEGEND = "Moyen de paiement";
export const PROVIDER_LABELS = {
  stripe: "Carte bancaire, Apple Pay / Google Pay",
  paypal: "PayPal",
  simulator: "Carte bancaire (démonstration)",
};

// Shown while Stripe's pane (its own chunk) and Stripe.js load.
export const MSG_STRIPE_PENDING = "Chargement du module de paiement sécurisé…";

/* A payment accepted but not settled yet (a SEPA debit takes days; PayPal may review a payment): the wording names
   who is processing it, so a card or SEPA payment never speaks of PayPal. */
export const MSG_PENDING_PAYPAL = "Votre paiement est en cours de vérification par PayPal. Vous recevrez un email dès sa validation.";
export const MSG_PENDING_PROCESSING = "Paiement en cours de traitement. Vous recevrez un e-mail dès qu'il sera confirmé.";
export const MSG_PENDING_SEPA =
  "Prélèvement SEPA en cours de traitement : il peut prendre quelques jours ouvrés. Vous recevrez un e-mail dès qu'il sera confirmé.";

export function pendingMessage(provider, method = "") {
  if (provider === "paypal") return MSG_PENDING_PAYPAL;
  if (method === "sepa_debit") return MSG_PENDING_SEPA;
  return MSG_PENDING_PROCESSING;
}

/** A capture or completion answer that says "accepted, not settled yet" (202 PENDING). */
export function isPending(answer) {
  return answer?.status === "PENDING";
}

export const MESSAGES = {
  calendar: { success: MSG_CALENDAR_SUCCESS, failure: MSG_CALENDAR_FAILURE },
  tariff: { success: MSG_TARIFF_SUCCESS, failure: MSG_TARIFF_FAILURE },
  deposit: { success: MSG_DEPOSIT_SUCCESS, failure: MSG_TARIFF_FAILURE },
  gift_card: { success: MSG_GIFT_CARD_SUCCESS, failure: MSG_TARIFF_FAILURE },
};

export function messagesFor(context) {
  return MESSAGES[context] || MESSAGES.tariff;
}

/** 'Erreur lors de la création de la commande' followed by the server's message when there is one. */
export function createFailureMessage(error) {
  const detail = serverMessage(error);
  return detail ? `${MSG_CREATE_FAILURE} : ${detail}` : MSG_CREATE_FAILURE;
}

export function serverMessage(error) {
  if (!error) return "";
  if (error.status === 0 || error.status === -1) return MSG_NETWORK;
  if (error.message && error.message !== "network" && error.message !== "timeout") return error.message;
  // The Stripe and simulator endpoints name their French reason `detail`.
  return typeof error.data?.detail === "string" ? error.data.detail : "";
}

/** The create-order payload (amount, title, type, payer and details) plus what it pays for; the server prices it
    again (docs/decisions.md 12). */
export function createOrderPayload({ order, payer = {}, details = {}, totalAmount, provider, terms = {} }) {
  // The provider the member picked, when the studio offers a choice (the server defaults to its first).
  const chosen = provider ? { provider } : {};
  if (order?.kind === "deposit") {
    // The deposit of a quoted request; the server prices it from the quote and knows the payer.
    return {
      kind: order.requestKind,
      request_id: order.requestId,
      amount: toAmount(totalAmount),
      accept_terms: Boolean(terms.accepted),
      ...chosen,
    };
  }
  if (order?.kind === "gift_card") {
    // A gift card (its amount or tariff, recipient, message, send date); the server prices it again.
    return { ...order.body, amount: toAmount(totalAmount), accept_terms: Boolean(terms.accepted), ...chosen };
  }
  const body = {
    amount: toAmount(totalAmount),
    title: details.title || "",
    type: details.type || "COURS",
    email: payer.email || "",
    first_name: payer.first_name || "",
    last_name: payer.last_name || "",
    date: details.date || "",
    time: details.time || "Non spécifiée",
    message: details.message || "",
    ...chosen,
  };
  if (order?.kind === "reservation") body.reservation_id = order.reservationId;
  if (order?.kind === "tariff") {
    body.tariff_id = order.tariffId;
    body.quantity = order.quantity;
    Object.assign(body, order.reduced || {}); // the reduced-rate confirmation (reduced_status, …)
    body.accept_terms = Boolean(terms.accepted);
    body.immediate_start = Boolean(terms.immediateStart);
  }
  return body;
}

/* Amounts sent to the API as 2-decimal strings computed in cents ("190.00", unit price × quantity)
   and euros shown the French way ("190,00 €"): all from the shared formatter. */
export { amountTimes as lineTotal, euros, toAmount as formatAmount } from "../format.js";
