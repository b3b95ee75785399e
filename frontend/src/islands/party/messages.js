/* EVJF/EVG messages: the form's checks and its outcome. */
export const MSG_REQUIRED = "Veuillez remplir tous les champs requis.";
export const MSG_LOGIN = "Vous devez être connecté pour réserver.";
export const MSG_SUCCESS = "Réservation effectuée avec succès ! 🎉";
export const MSG_FAILURE = "Erreur lors de la réservation.";
export const MSG_UNKNOWN = "Une erreur est survenue.";
// The request has a life the member follows (status, quote, deposit; docs/decisions.md 17).
export const MSG_FOLLOW = "Le studio vous envoie un devis : suivez votre demande dans";

export const MSG_SPECTATORS = "Le nombre de spectateurs doit être compris entre 0 et 100.";
export const MAX_SPECTATORS = 100;
export const LABEL_GUEST_OF_HONOUR = "La future mariée ou le futur marié prend le cours (gratuit)";
export const LABEL_ESTIMATE = "Estimation";
export const MSG_ESTIMATE_NOTE = "Prix indicatif calculé par le studio ; le devis vous est envoyé après votre demande.";

/* The EVJF/EVG prices as the page states them (docs/decisions.md 12), shown through the shared formatter. The
   estimate of a request is the server's (GET /api/evf-reservations/estimate, the staff's pricing rule), never
   computed here. */
export const PRICE_PER_PARTICIPANT = "25.00";
export const PRICE_PER_SPECTATOR = "5.00";
