/* My courses messages: the feedback form's check and outcome, and the list's. */
export const MSG_FEEDBACK_REQUIRED = "Veuillez remplir tous les champs pour le feedback";
export const MSG_FEEDBACK_SAVED = "Feedback enregistré avec succès";
export const MSG_FEEDBACK_ERROR = "Erreur lors de l’enregistrement du feedback";
export const MSG_LOAD_ERROR = "Erreur lors de la récupération des cours";
export const MSG_CANCEL_ERROR = "L'annulation a échoué. Veuillez réessayer.";
export const MSG_LOAD_MORE = "Afficher les cours plus anciens";
export const LABEL_PAID_BY_CARD = "Carte bancaire";
// A class the front desk booked for the member (docs/decisions.md 50): to settle there, or settled there.
export const LABEL_DUE_AT_DESK = "À régler à l'accueil";
export const LABEL_PAID_AT_DESK = "Payé à l'accueil";
export const MSG_DUE_CANCEL = "Votre place sera libérée : rien n'était encore réglé.";
// An unpaid hold (the reservation popup held the seats, the payment was not finished): paid or released from here.
export const LABEL_NOT_PAID = "Non payée";
export const MSG_HOLD_RELEASE = "Vos places retenues seront libérées ; rien ne vous a été facturé.";
export const MSG_PAY_TITLE = "Payer la réservation";
export const MSG_PAY_LOADING = "Chargement du paiement…";

/** "Places retenues jusqu'à 18:45" (the hold's end, Paris time). */
export function holdUntilLabel(time) {
  return `Places retenues jusqu'à ${time}`;
}

/** How a reservation was paid: 'Carte 10 cours (2 crédits)', 'Abonnement annuel illimité' or 'Carte bancaire'. */
export function paymentLabel(row) {
  if (row.status === "held") return LABEL_NOT_PAID;
  if (row.desk_payment === "due") return LABEL_DUE_AT_DESK;
  if (row.desk_payment === "paid") return LABEL_PAID_AT_DESK;
  const pass = row.paid_with_pass;
  if (!pass) return LABEL_PAID_BY_CARD;
  if (pass.kind !== "card" || !row.credits_spent) return pass.title;
  return `${pass.title} (${row.credits_spent === 1 ? "1 crédit" : `${row.credits_spent} crédits`})`;
}

/** What cancelling gives back, said before the member confirms. */
export function cancelConsequence(row) {
  if (row.status === "held") return MSG_HOLD_RELEASE;
  const pass = row.paid_with_pass;
  if (row.desk_payment === "due") return MSG_DUE_CANCEL;
  if (!pass) return "Le montant payé deviendra un avoir en crédits de cours valable 6 mois (pas de remboursement automatique).";
  if (pass.kind === "card" && row.credits_spent) {
    const back = row.credits_spent === 1 ? "Votre crédit sera rendu" : `Vos ${row.credits_spent} crédits seront rendus`;
    return `${back} sur votre ${pass.title}.`;
  }
  return "Votre place sera libérée.";
}

// docs/decisions.md 44: after the course's free-cancellation deadline a member still cancels ("annulation tardive").
export const LABEL_LATE_CANCEL = "Annulation tardive";
export const MSG_CANCELLATION_RULE =
  "Chaque cours a son délai d'annulation gratuite. Après, vous pouvez encore annuler (annulation tardive) : le studio conserve votre crédit ou votre paiement, sauf si votre place est reprise avant le cours.";

/** What a late cancellation keeps, said before the member confirms it. */
export function lateCancelConsequence(row) {
  const pass = row.paid_with_pass;
  let kept = "votre paiement";
  let back = "il vous sera alors rendu automatiquement sous forme d'avoir";
  if (pass && pass.kind === "card" && row.credits_spent) {
    kept = row.credits_spent === 1 ? "votre crédit" : `vos ${row.credits_spent} crédits`;
    back = row.credits_spent === 1 ? "il vous sera alors rendu automatiquement" : "ils vous seront alors rendus automatiquement";
  } else if (pass || Number(row.total_amount) === 0) {
    return "Annulation tardive : le délai d'annulation gratuite est passé. Votre place sera libérée.";
  }
  return `Annulation tardive : le délai d'annulation gratuite est passé. Le studio conserve ${kept}, sauf si votre place est reprise avant le cours : ${back}.`;
}
