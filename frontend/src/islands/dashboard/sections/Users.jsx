/* Members and staff: edit, role (admins only, DECISIONS.md 11), delete, search by name or e-mail. */
import { MSG_ROLE_ADMIN_ONLY, MSG_SAVE, MSG_USER_DELETE, MSG_USERS_LOAD } from "../messages.js";
import { ROLE_OPTIONS, roleLabel } from "../options.js";
import ResourceSection from "../ResourceSection.jsx";
import { validateUser } from "../validation.js";

const USER_FIELDS = ["first_name", "last_name", "email", "phone", "address", "postal_code", "city", "country"];

export const usersConfig = {
  key: "users",
  title: "Utilisateurs",
  noun: "un utilisateur",
  endpoint: "/api/users",
  itemPath: (row) => `/api/users/${row.id}`,
  label: (row) => `${row.first_name} ${row.last_name}`.trim() || row.email,
  serverPaged: true,
  defaultOrdering: "last_name",
  searchable: "Rechercher par nom ou e-mail",
  canAdd: false,
  canDeleteRow: (row, user) => row.id !== user.id && (row.role !== "admin" || user.isAdmin),
  columns: [
    { key: "last_name", label: "Nom", sort: "last_name" },
    { key: "first_name", label: "Prénom", sort: "first_name" },
    { key: "email", label: "E-mail", sort: "email" },
    { key: "phone", label: "Téléphone" },
    { key: "role", label: "Rôle", sort: "role", render: (row) => roleLabel(row.role) },
  ],
  fields: ({ user }) => [
    { name: "first_name", label: "Prénom", required: true },
    { name: "last_name", label: "Nom", required: true },
    { name: "email", label: "E-mail", type: "email", required: true },
    { name: "phone", label: "Téléphone", type: "tel", inputMode: "numeric" },
    { name: "address", label: "Adresse" },
    { name: "postal_code", label: "Code postal", inputMode: "numeric" },
    { name: "city", label: "Ville" },
    { name: "country", label: "Pays" },
    {
      name: "role",
      label: "Rôle",
      type: "select",
      noEmpty: true,
      options: ROLE_OPTIONS,
      disabled: !user.isAdmin,
      help: user.isAdmin ? null : MSG_ROLE_ADMIN_ONLY,
    },
  ],
  toForm: (row) => Object.fromEntries([...USER_FIELDS, "role"].map((name) => [name, row[name] ?? ""])),
  toPayload: (values, mode, { user }) => {
    const body = Object.fromEntries(USER_FIELDS.map((name) => [name, (values[name] ?? "").trim()]));
    if (user.isAdmin) body.role = values.role;
    return body;
  },
  validate: validateUser,
  messages: { load: MSG_USERS_LOAD, save: MSG_SAVE, delete: MSG_USER_DELETE },
};

export default function Users(props) {
  return <ResourceSection config={usersConfig} {...props} />;
}
