/* Every French message the dashboard shows (form rules and errors). Tests import these constants. */

// Users
export const MSG_USERS_LOAD = "Erreur lors du chargement des utilisateurs";
export const MSG_USER_DELETE = "Erreur lors de la suppression de l’utilisateur";
export const MSG_SAVE = "Erreur lors de la sauvegarde.";
export const MSG_DELETE = "Erreur lors de la suppression.";

// Sessions (success messages shown 3 s)
export const MSG_SESSIONS_LOAD = "Erreur de chargement des sessions.";
export const MSG_COURSES_LOAD = "Erreur de chargement des cours.";
export const MSG_SESSION_UPDATED = "Session modifiée avec succès !";
export const MSG_SESSION_ADDED = "Session ajoutée avec succès !";
export const MSG_SESSION_DELETED = "Session supprimée avec succès !";
// When the server's answer says nothing more (it says how many bookings were cancelled).
export const MSG_CLASS_CANCELLED = "Cours annulé : les inscrits sont prévenus par e-mail.";

// Tarifs
export const MSG_TARIFS_LOAD = "Erreur lors de la récupération des tarifs.";

// The product fixes no wording for the other sections; these follow the same pattern.
export const MSG_LOAD = "Erreur lors du chargement.";
export const MSG_SLIDER_LOAD = "Erreur lors du chargement des images du slider.";
export const MSG_SLIDESHOW_LOAD = "Erreur lors du chargement des images du diaporama.";
export const MSG_MEDIA_LOAD = "Erreur lors du chargement des médias.";
export const MSG_MESSAGES_LOAD = "Impossible de récupérer les messages.";
export const MSG_MESSAGE_DELETE = "Erreur lors de la suppression du message.";
export const MSG_ORDERS_LOAD = "Erreur lors du chargement des commandes.";
export const MSG_SAVED = "Enregistré avec succès.";
export const MSG_DELETED = "Supprimé avec succès.";
export const MSG_NOT_AVAILABLE = "Cette rubrique n'est pas encore disponible.";
export const MSG_EMPTY = "Aucun élément.";
export const MSG_ROLE_ADMIN_ONLY = "Seul un administrateur peut changer le rôle.";
export const MSG_EMAIL_STAFF_ADMIN_ONLY = "Seul un administrateur peut changer l'e-mail d'un membre de l'équipe.";
export const MSG_EMAIL_CHANGE_CONFIRMED_BY_LINK = "Une nouvelle adresse ne remplace l'ancienne qu'une fois confirmée par le lien qui lui est envoyé.";

// Admin form rules
export const MSG_FIELD_REQUIRED = "Ce champ est obligatoire.";
export const MSG_SESSION_PLACES_MIN = "Le nombre de places doit être au moins 1.";
export const MSG_PRICE_NUMBER = "Le prix doit être un nombre.";
// The server's courses.services.catalogue.MSG_TARIFF_WEEKLY_CAP_INVALID (docs/decisions.md 26).
export const MSG_WEEKLY_CAP_INVALID = "Le nombre de cours par semaine est un nombre entier de 0 (illimité) à 14.";
export const WEEKLY_CAP_MAX = 14;
export const MSG_SLIDER_TYPES = "Seuls les fichiers JPEG, PNG, et GIF sont autorisés.";
export const MSG_SLIDER_REQUIRED = "Veuillez sélectionner une image et fournir un texte alternatif.";
export const MSG_SLIDESHOW_REQUIRED = "Veuillez sélectionner une image.";
export const MSG_SLIDESHOW_TYPES = "Seuls les fichiers JPEG, PNG, GIF et WebP sont autorisés.";
export const MSG_MEDIA_REQUIRED = "Veuillez ajouter un titre et un fichier ou une URL.";
export const MSG_ORDER_REQUIRED = "⚠️ Veuillez remplir tous les champs obligatoires !";
export const MSG_FORM_INVALID = "Veuillez corriger les champs en erreur.";
