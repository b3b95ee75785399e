/* The gift cards page's French wording (docs/decisions.md 49 and 56). */
export const MSG_BUY_TITLE = "Offrir une carte cadeau";
export const MSG_LOGIN_TO_BUY = "Connectez-vous pour offrir une carte cadeau.";
export const MSG_WHAT = "Que voulez-vous offrir ?";
export const MSG_AN_AMOUNT = "Un montant";
export const MSG_A_TARIFF = "Un tarif";
export const MSG_AMOUNT_LABEL = "Montant (de 20 à 500 €)";
export const MSG_TARIFF_LABEL = "Tarif offert";
export const MSG_RECIPIENT_NAME = "Prénom et nom du bénéficiaire";
export const MSG_RECIPIENT_EMAIL = "E-mail du bénéficiaire (vide : la carte vous est envoyée)";
export const MSG_MESSAGE = "Votre message (facultatif)";
export const MSG_WHEN = "Quand l'envoyer ?";
export const MSG_TODAY = "Aujourd'hui";
export const MSG_IN_3_DAYS = "Dans 3 jours";
export const MSG_ON_DATE = "À une date";
export const MSG_SEND_DATE = "Date d'envoi";
export const MSG_AMOUNT_RANGE = "Le montant d'une carte cadeau est compris entre 20 € et 500 €.";
export const MSG_DATE_MISSING = "Choisissez la date d'envoi de la carte cadeau.";
export const MSG_CHECK_TITLE = "Consulter le solde d'une carte";
export const MSG_CODE_LABEL = "Code de la carte cadeau";
export const MSG_CHECK_BUTTON = "Voir le solde";
export const MSG_MINE_TITLE = "Mes cartes cadeaux";
export const MSG_MINE_NONE = "Vous n'avez pas encore de carte cadeau.";
export const MSG_EXPIRED = "expirée";
export const MSG_CANCELLED = "annulée";

export function balanceText({ balance, expires_on: expiresOn, expired, status }, euros, date) {
  if (status === "cancelled") return `Carte ${MSG_CANCELLED}.`;
  const until = expiresOn ? ` ${expired ? "Expirée depuis le" : "Valable jusqu'au"} ${date(expiresOn)}.` : "";
  return `Solde : ${euros(balance)}.${until}`;
}
