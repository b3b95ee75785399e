/* Choices shared by several forms. */
export const LEVEL_OPTIONS = [
  { value: "Débutant", label: "Débutant" },
  { value: "Intermédiaire", label: "Intermédiaire" },
  { value: "Avancé", label: "Avancé" },
  { value: "Tous niveaux", label: "Tous niveaux" },
];

export const TARIF_TYPE_OPTIONS = [
  { value: "cours", label: "Cours" },
  { value: "abonnement", label: "Abonnement" },
  { value: "forfait", label: "Forfait" },
  { value: "evenement", label: "Événement" },
];

export const ROLE_OPTIONS = [
  { value: "user", label: "Membre" },
  { value: "supervisor", label: "Superviseur" },
  { value: "admin", label: "Administrateur" },
  { value: "instructor", label: "Professeur" },
];

export const MEDIA_TYPE_OPTIONS = [
  { value: "photo", label: "Photo" },
  { value: "video", label: "Vidéo" },
];

export const roleLabel = (value) => ROLE_OPTIONS.find((o) => o.value === value)?.label || value;
export const tarifTypeLabel = (value) => TARIF_TYPE_OPTIONS.find((o) => o.value === value)?.label || value;
