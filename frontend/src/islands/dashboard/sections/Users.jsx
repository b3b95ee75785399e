/* Members and staff: edit, role (admins only, docs/decisions.md 11), delete, search by name or e-mail.
   docs/decisions.md 32: supervisors edit and delete members only, and only an admin changes a staff member's e-mail.
   The list says per row what the server accepts (`can_edit`); the server refuses the rest anyway. */
import { MSG_EMAIL_CHANGE_CONFIRMED_BY_LINK, MSG_EMAIL_STAFF_ADMIN_ONLY, MSG_ROLE_ADMIN_ONLY, MSG_SAVE, MSG_USER_DELETE, MSG_USERS_LOAD } from "../messages.js";
import { ROLE_OPTIONS, roleLabel } from "../options.js";
import ResourceSection from "../ResourceSection.jsx";
import MemberDataActions from "./MemberData.jsx";
import { validateUser } from "../validation.js";

const USER_FIELDS = ["first_name", "last_name", "email", "phone", "address", "postal_code", "city", "country"];

/** Staff change a member's e-mail; only an admin changes a staff member's (their own included). */
export const canChangeEmail = (row, user) => Boolean(user.isAdmin || (row && row.role === "user"));

/** The no-shows on a member's record: "Aucune", "1 absence", "3 absences". */
export function noShowsLabel(row) {
  const count = Number(row.no_shows || 0);
  if (count === 0) return "Aucune";
  return `${count} absence${count > 1 ? "s" : ""}`;
}

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
  canEditRow: (row, user) => row.can_edit !== false && (user.isAdmin || row.role === "user" || row.id === user.id),
  canDeleteRow: (row, user) => row.id !== user.id && (row.role === "user" || user.isAdmin),
  columns: [
    { key: "last_name", label: "Nom", sort: "last_name" },
    { key: "first_name", label: "Prénom", sort: "first_name" },
    { key: "email", label: "E-mail", sort: "email" },
    { key: "phone", label: "Téléphone" },
    { key: "role", label: "Rôle", sort: "role", render: (row) => roleLabel(row.role) },
    // The absences marked at the studio door, on the member's record (docs/decisions.md 38).
    { key: "no_shows", label: "Absences", render: noShowsLabel },
  ],
  // A member's data (JSON) and the deletion of their account on their request (docs/decisions.md 34).
  rowActions: (row, ctx) => <MemberDataActions row={row} onDone={() => ctx.reload()} />,
  fields: ({ user, row }) => [
    { name: "first_name", label: "Prénom", required: true },
    { name: "last_name", label: "Nom", required: true },
    {
      name: "email",
      label: "E-mail",
      type: "email",
      required: true,
      disabled: !canChangeEmail(row, user),
      help: canChangeEmail(row, user) ? MSG_EMAIL_CHANGE_CONFIRMED_BY_LINK : MSG_EMAIL_STAFF_ADMIN_ONLY,
    },
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
  toPayload: (values, mode, { user, row }) => {
    const body = Object.fromEntries(USER_FIELDS.map((name) => [name, (values[name] ?? "").trim()]));
    if (!canChangeEmail(row, user)) delete body.email;
    if (user.isAdmin) body.role = values.role;
    return body;
  },
  validate: validateUser,
  // A new e-mail waits for the link sent to it: say so rather than "saved".
  savedMessage: (saved) => (saved && saved.pending_email ? saved.message : ""),
  messages: { load: MSG_USERS_LOAD, save: MSG_SAVE, delete: MSG_USER_DELETE },
};

export default function Users(props) {
  return <ResourceSection config={usersConfig} {...props} />;
}
