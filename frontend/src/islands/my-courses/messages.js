/* My courses messages (SPEC.md 5, 8). */
export const MSG_FEEDBACK_REQUIRED = "Veuillez remplir tous les champs pour le feedback";
export const MSG_FEEDBACK_SAVED = "Feedback enregistré avec succès";
export const MSG_FEEDBACK_ERROR = "Erreur lors de l’enregistrement du feedback";
export const MSG_LOAD_ERROR = "Erreur lors de la récupération des cours";
