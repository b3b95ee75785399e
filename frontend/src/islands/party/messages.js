/* EVJF/EVG messages (SPEC.md 5, 8). */
export const MSG_REQUIRED = "Veuillez remplir tous les champs requis.";
export const MSG_LOGIN = "Vous devez être connecté pour réserver.";
export const MSG_SUCCESS = "Réservation effectuée avec succès ! 🎉";
export const MSG_FAILURE = "Erreur lors de la réservation.";
export const MSG_UNKNOWN = "Une erreur est survenue.";
// Issue 23: the request has a life the member follows (status, quote, deposit).
export const MSG_FOLLOW = "Le studio vous envoie un devis : suivez votre demande dans";

/* The EVJF/EVG prices (SPEC.md 5; the server prices the party again), shown through the shared formatter. */
export const PRICE_PER_PARTICIPANT = "25.00";
export const PRICE_PER_SPECTATOR = "5.00";
