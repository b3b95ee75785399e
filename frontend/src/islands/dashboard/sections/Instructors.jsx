/* Instructors are people: a name the calendar shows, an optional account (an admin gives it the role
   "Professeur" for it to see its own classes and attendance lists), an active flag, specialties and a short bio.
   An instructor who has classes is deactivated rather than deleted (the server answers 409). */
import { MSG_DELETE, MSG_SAVE } from "../messages.js";
import ResourceSection from "../ResourceSection.jsx";
import { validateInstructor } from "../validation.js";
import { MSG_INSTRUCTORS_LOAD } from "./sessionInstructor.js";

export { MSG_INSTRUCTORS_LOAD };
export const MSG_INSTRUCTOR_ADDED = "Professeur ajouté.";
export const MSG_INSTRUCTOR_UPDATED = "Professeur modifié.";
export const MSG_INSTRUCTOR_DELETED = "Professeur supprimé.";
export const ACCOUNT_HELP = "Facultatif. Donnez à ce compte le rôle « Professeur » pour qu'il voie ses cours et pointe les présences.";

export const instructorsConfig = {
  key: "instructors",
  title: "Professeurs",
  noun: "un professeur",
  endpoint: "/api/instructors",
  itemPath: (row) => `/api/instructors/${row.id}`,
  label: (row) => row.name,
  options: {
    users: {
      endpoint: "/api/users?page_size=100&ordering=last_name",
      map: (rows) => rows.map((u) => ({ value: String(u.id), label: `${u.first_name} ${u.last_name} (${u.email})` })),
    },
  },
  columns: [
    { key: "name", label: "Nom" },
    { key: "user_email", label: "Compte", render: (row) => row.user_email || "—" },
    { key: "active", label: "Statut", render: (row) => (row.active === false ? "Inactif" : "Actif") },
    { key: "specialties", label: "Spécialités" },
    { key: "bio", label: "Biographie", render: (row) => <span className="dash-clip">{row.bio}</span> },
  ],
  fields: ({ options }) => [
    { name: "name", label: "Nom", required: true },
    { name: "user_id", label: "Compte utilisateur", type: "select", options: options.users || [], help: ACCOUNT_HELP },
    { name: "active", label: "Actif (proposé pour les séances)", type: "checkbox" },
    { name: "specialties", label: "Spécialités" },
    { name: "bio", label: "Biographie", type: "textarea" },
  ],
  emptyValues: () => ({ name: "", user_id: "", active: true, specialties: "", bio: "" }),
  toForm: (row) => ({
    name: row.name || "",
    user_id: row.user_id ? String(row.user_id) : "",
    active: row.active !== false,
    specialties: row.specialties || "",
    bio: row.bio || "",
  }),
  toPayload: (values) => ({
    name: values.name.trim(),
    user_id: values.user_id ? Number(values.user_id) : null,
    active: Boolean(values.active),
    specialties: values.specialties,
    bio: values.bio,
  }),
  validate: validateInstructor,
  messages: {
    load: MSG_INSTRUCTORS_LOAD,
    save: MSG_SAVE,
    delete: MSG_DELETE,
    added: MSG_INSTRUCTOR_ADDED,
    updated: MSG_INSTRUCTOR_UPDATED,
    deleted: MSG_INSTRUCTOR_DELETED,
  },
};

export default function Instructors(props) {
  return <ResourceSection config={instructorsConfig} {...props} />;
}
