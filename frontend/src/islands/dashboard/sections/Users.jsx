/* Members and staff: edit, role (admins only, docs/decisions.md 11), delete, search by name or e-mail.
   docs/decisions.md 32: supervisors edit and delete members only, and only an admin changes a staff member's e-mail.
   The list says per row what the server accepts (`can_edit`); the server refuses the rest anyway.
   docs/decisions.md 50: "Ajouter un client" creates a member at the desk, who is e-mailed a link to choose a password;
   "Fiche client" on each row opens what the studio knows of them (ClientHistory.jsx). */
import { useState } from "react";
import FormModal from "../FormModal.jsx";
import { fieldErrors, send } from "../request.js";
import ClientHistoryButton from "./ClientHistory.jsx";
import { MSG_EMAIL_CHANGE_CONFIRMED_BY_LINK, MSG_EMAIL_STAFF_ADMIN_ONLY, MSG_ROLE_ADMIN_ONLY, MSG_SAVE, MSG_USER_DELETE, MSG_USERS_LOAD } from "../messages.js";
import { ROLE_OPTIONS, roleLabel } from "../options.js";
import ResourceSection from "../ResourceSection.jsx";
import MemberDataActions from "./MemberData.jsx";
import { validateUser } from "../validation.js";

// A company to invoice (docs/decisions.md 54): the server checks the SIREN's key and the VAT number's shape and
// answers beside the field; all empty, the member is invoiced in their own name.
export const COMPANY_FIELD_LABELS = {
  company_name: "Société à facturer (facultatif)",
  company_siren: "SIREN de la société",
  company_vat_number: "N° de TVA intracommunautaire",
  company_address: "Adresse de facturation de la société",
};
const COMPANY_FIELDS = Object.keys(COMPANY_FIELD_LABELS);
const USER_FIELDS = ["first_name", "last_name", "email", "phone", "address", "postal_code", "city", "country", ...COMPANY_FIELDS];

/** Staff change a member's e-mail; only an admin changes a staff member's (their own included). */
export const canChangeEmail = (row, user) => Boolean(user.isAdmin || (row && row.role === "user"));

/** The no-shows on a member's record: "Aucune", "1 absence", "3 absences". */
export function noShowsLabel(row) {
  const count = Number(row.no_shows || 0);
  if (count === 0) return "Aucune";
  return `${count} absence${count > 1 ? "s" : ""}`;
}

// The checks the server makes (accounts/apis/clients.py), in the same words, before anything is sent.
export const MSG_CLIENT_NAMES_REQUIRED = "❌ Le prénom et le nom sont obligatoires.";
export const MSG_CLIENT_EMAIL_INVALID = "❌ L'email n'est pas valide.";
export const MSG_CLIENT_PHONE_INVALID = "❌ Le numéro de téléphone doit contenir 10 chiffres.";
export const MSG_CLIENT_SAVE = "Le client n'a pas pu être créé. Veuillez réessayer.";
export const clientCreatedMessage = (email) =>
  `Client créé : un e-mail pour choisir son mot de passe a été envoyé à ${email}.`;

const CLIENT_FIELDS = [
  { name: "first_name", label: "Prénom", required: true },
  { name: "last_name", label: "Nom", required: true },
  { name: "email", label: "E-mail", type: "email", required: true, help: "Le client y reçoit un lien pour choisir son mot de passe." },
  { name: "phone", label: "Téléphone (facultatif)", type: "tel", inputMode: "numeric" },
];
const EMPTY_CLIENT = { first_name: "", last_name: "", email: "", phone: "" };
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The new client's fields as the server will check them: {message, errors} or null. */
export function validateClient(values) {
  const errors = {};
  if (!values.first_name.trim()) errors.first_name = MSG_CLIENT_NAMES_REQUIRED;
  if (!values.last_name.trim()) errors.last_name = MSG_CLIENT_NAMES_REQUIRED;
  if (!EMAIL_SHAPE.test(values.email.trim())) errors.email = MSG_CLIENT_EMAIL_INVALID;
  const phone = values.phone.replace(/[\s.-]/g, "");
  if (phone && !/^\d{10}$/.test(phone)) errors.phone = MSG_CLIENT_PHONE_INVALID;
  const first = Object.values(errors)[0];
  return first ? { message: first, errors } : null;
}

/** "Ajouter un client" at the top of the users section, its form in a modal, and the confirmation once created. */
export function ClientCreate({ onCreated }) {
  const [form, setForm] = useState(null); // {values, errors, error, busy}
  const [notice, setNotice] = useState("");
  const change = (name, value) =>
    setForm((current) => {
      const errors = { ...current.errors };
      delete errors[name];
      return { ...current, values: { ...current.values, [name]: value }, errors };
    });
  const submit = async () => {
    const invalid = validateClient(form.values);
    if (invalid) {
      setForm((current) => ({ ...current, errors: invalid.errors, error: invalid.message }));
      return;
    }
    setForm((current) => ({ ...current, busy: true, error: "", errors: {} }));
    const body = Object.fromEntries(Object.entries(form.values).map(([name, value]) => [name, value.trim()]));
    try {
      const created = await send("/api/users", { method: "POST", body });
      setForm(null);
      setNotice(created.message || clientCreatedMessage(created.email));
      onCreated?.(created);
    } catch (error) {
      const message = error.status > 0 && error.message ? error.message : MSG_CLIENT_SAVE;
      setForm((current) => current && { ...current, busy: false, errors: fieldErrors(error), error: message });
    }
  };
  return (
    <>
      <button
        type="button"
        className="button"
        onClick={() => {
          setNotice("");
          setForm({ values: EMPTY_CLIENT, errors: {}, error: "", busy: false });
        }}
      >
        Ajouter un client
      </button>
      <div aria-live="polite">
        {notice && (
          <p className="form-success dash-flash" role="status">
            {notice}
          </p>
        )}
      </div>
      {form && (
        <FormModal
          open
          title="Ajouter un client"
          fields={CLIENT_FIELDS}
          values={form.values}
          errors={form.errors}
          formError={form.error}
          busy={form.busy}
          progress={null}
          onChange={change}
          onSubmit={submit}
          onClose={() => setForm(null)}
        />
      )}
    </>
  );
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
  // "Ajouter un client" (docs/decisions.md 50) sits above the list, beside the title.
  extra: (ctx) => <ClientCreate onCreated={() => ctx.reload()} />,
  // The client's file (docs/decisions.md 50); a member's data (JSON) and the deletion of their account on their
  // request (docs/decisions.md 34).
  rowActions: (row, ctx) => (
    <>
      <ClientHistoryButton row={row} />
      <MemberDataActions row={row} onDone={() => ctx.reload()} />
    </>
  ),
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
    ...COMPANY_FIELDS.map((name) => ({
      name,
      label: COMPANY_FIELD_LABELS[name],
      inputMode: name === "company_siren" ? "numeric" : undefined,
      help: name === "company_name" ? "Ses factures sont alors au nom de la société (Factur-X)." : null,
    })),
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
