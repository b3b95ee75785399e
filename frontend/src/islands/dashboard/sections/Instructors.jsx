/* Instructors: list, add, edit (SPEC.md 7: user_id, bio, specialties). */
import { MSG_SAVE } from "../messages.js";
import ResourceSection from "../ResourceSection.jsx";
import { validateInstructor } from "../validation.js";

export const MSG_INSTRUCTORS_LOAD = "Erreur lors du chargement des professeurs.";
const fullName = (row) => row.name || `${row.first_name || ""} ${row.last_name || ""}`.trim() || row.email || `#${row.user_id}`;

export const instructorsConfig = {
  key: "instructors",
  title: "Professeurs",
  noun: "un professeur",
  endpoint: "/api/instructors",
  itemPath: (row) => `/api/instructors/${row.id ?? row.user_id}`,
  label: fullName,
  canDelete: false,
  options: {
    users: {
      endpoint: "/api/users?page_size=100&ordering=last_name",
      map: (rows) => rows.map((u) => ({ value: String(u.id), label: `${u.first_name} ${u.last_name} (${u.email})` })),
    },
  },
  columns: [
    { key: "name", label: "Nom", render: fullName },
    { key: "specialties", label: "Spécialités" },
    { key: "bio", label: "Biographie", render: (row) => <span className="dash-clip">{row.bio}</span> },
  ],
  fields: ({ options, mode }) => [
    { name: "user_id", label: "Utilisateur", type: "select", required: true, options: options.users || [], disabled: mode === "edit" },
    { name: "specialties", label: "Spécialités" },
    { name: "bio", label: "Biographie", type: "textarea" },
  ],
  emptyValues: () => ({ user_id: "", specialties: "", bio: "" }),
  toForm: (row) => ({ user_id: String(row.user_id ?? ""), specialties: row.specialties || "", bio: row.bio || "" }),
  toPayload: (values) => ({ user_id: Number(values.user_id), specialties: values.specialties, bio: values.bio }),
  validate: validateInstructor,
  messages: { load: MSG_INSTRUCTORS_LOAD, save: MSG_SAVE },
};

export default function Instructors(props) {
  return <ResourceSection config={instructorsConfig} {...props} />;
}
