/* What Stripe's Payment Element pane shows; in the pane's own chunk, fetched only once a Stripe payment starts. */
export const MSG_STRIPE_REJECTED =
  "Le module de paiement sécurisé n'a pas pu être chargé. Vérifiez votre connexion puis réessayez.";
export const MSG_STRIPE_SUBMITTING = "Paiement en cours…";
export const MSG_STRIPE_SAVE = "Enregistrer ce moyen de paiement";
export const MSG_STRIPE_SAVING = "Enregistrement en cours…";
// Stripe's own messages are in English for some errors: the member reads these French ones (the server's wording in
// payments/stripe_messages.py for the same codes).
export const MSG_STRIPE_REFUSED = "Votre banque a refusé le paiement.";
export const MSG_STRIPE_FAILED = "Le paiement n'a pas pu aboutir. Réessayez ou choisissez un autre moyen de paiement.";
export const MSG_STRIPE_INVALID = "Vérifiez les informations de paiement saisies.";
export const STRIPE_ERRORS = {
  insufficient_funds: "Fonds insuffisants.",
  expired_card: "Cette carte a expiré.",
  incorrect_cvc: "Le cryptogramme visuel (CVC) est incorrect.",
  invalid_cvc: "Le cryptogramme visuel (CVC) est incorrect.",
  incorrect_number: "Le numéro de carte est incorrect.",
  invalid_number: "Le numéro de carte est incorrect.",
  payment_intent_authentication_failure: "La vérification demandée par votre banque (3-D Secure) n'a pas abouti.",
  setup_intent_authentication_failure: "La vérification demandée par votre banque (3-D Secure) n'a pas abouti.",
};

/** The French sentence for an error Stripe.js returned from confirmPayment/confirmSetup. */
export function stripeErrorMessage(error) {
  if (!error) return MSG_STRIPE_FAILED;
  const known = STRIPE_ERRORS[error.decline_code] || STRIPE_ERRORS[error.code];
  if (known) return known;
  if (error.type === "validation_error") return MSG_STRIPE_INVALID;
  if (error.type === "card_error") return MSG_STRIPE_REFUSED;
  return MSG_STRIPE_FAILED;
}

