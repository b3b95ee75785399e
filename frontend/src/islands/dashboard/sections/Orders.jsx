/* Card-payment orders: e-mail, order id, amount, title, date, time required. The list fits a laptop's width
   without scrolling sideways: date and time in one column, the e-mail under the name, the type and the order's
   number under its title; types and statuses in French (format.js), never their codes. */
import { ORDER_STATUS_LABELS, ORDER_TYPE_LABELS, formatDayAndTime, formatMoney, orderStatusLabel, orderTypeLabel } from "../format.js";
import { MSG_DELETE, MSG_ORDERS_LOAD, MSG_SAVE } from "../messages.js";
import ResourceSection from "../ResourceSection.jsx";
import { validateOrder } from "../validation.js";

const FIELDS = ["order_id", "email", "first_name", "last_name", "title", "amount", "currency", "date", "time", "type", "status", "message"];
export const ORDER_DEFAULTS = { currency: "EUR", type: "UNKNOWN", status: "CREATED" };

// A payment completed once has its invoice, issued in the payment's transaction (docs/decisions.md 40), credited
// or not.
export function invoiceUrl(row) {
  return row.status === "COMPLETED" || row.completed_at ? `/api/invoices/orders/${encodeURIComponent(row.order_id)}/pdf` : "";
}

function invoiceLink(row) {
  const href = invoiceUrl(row);
  if (!href) return "—";
  return (
    <a href={href} download aria-label={`Télécharger la facture de la commande ${row.order_id}`}>
      PDF
    </a>
  );
}

function clientCell(row) {
  const name = `${row.first_name || ""} ${row.last_name || ""}`.trim();
  return (
    <>
      {name || row.email}
      {name && row.email && <span className="dash-sub">{row.email}</span>}
    </>
  );
}

function titleCell(row) {
  return (
    <>
      <span className="dash-clip">{row.title}</span>
      <span className="dash-sub">
        {orderTypeLabel(row.type)} · n° {row.order_id}
      </span>
    </>
  );
}

// The form's choices: the known codes in French, and the order's own code if the list does not know it.
function choicesOf(labels, current, labelOf) {
  const options = Object.entries(labels).map(([value, label]) => ({ value, label }));
  if (current && !labels[current]) options.push({ value: current, label: labelOf(current) });
  return options;
}

export const ordersConfig = {
  key: "orders",
  title: "Commandes de paiement",
  noun: "une commande",
  endpoint: "/api/paypal/orders",
  itemPath: (row) => `/api/paypal/orders/${encodeURIComponent(row.order_id)}`,
  rowKey: (row) => row.order_id,
  label: (row) => `la commande ${row.order_id}`,
  serverPaged: true,
  defaultOrdering: "-date",
  actionsMenu: true,
  columns: [
    { key: "date", label: "Date", sort: "date", render: (row) => formatDayAndTime(row.date, row.time) },
    { key: "client", label: "Client", className: "dash-wrap", render: clientCell },
    { key: "title", label: "Objet", className: "dash-wrap", render: titleCell },
    { key: "amount", label: "Montant", sort: "amount", render: (row) => formatMoney(row.amount, row.currency || "EUR") },
    { key: "status", label: "Statut", sort: "status", render: (row) => orderStatusLabel(row.status) },
    { key: "invoice", label: "Facture", render: (row) => invoiceLink(row) },
  ],
  fields: ({ mode, values }) => [
    { name: "order_id", label: "N° de commande", required: true, disabled: mode === "edit" },
    { name: "email", label: "E-mail", type: "email", required: true },
    { name: "first_name", label: "Prénom" },
    { name: "last_name", label: "Nom" },
    { name: "title", label: "Objet", required: true },
    { name: "amount", label: "Montant (€)", type: "number", min: 0, step: "0.01", required: true },
    { name: "currency", label: "Devise" },
    { name: "date", label: "Date", required: true },
    { name: "time", label: "Heure", required: true },
    { name: "type", label: "Type", type: "select", options: choicesOf(ORDER_TYPE_LABELS, values?.type, orderTypeLabel) },
    { name: "status", label: "Statut", type: "select", options: choicesOf(ORDER_STATUS_LABELS, values?.status, orderStatusLabel) },
    { name: "message", label: "Message", type: "textarea" },
  ],
  emptyValues: () => ({ ...Object.fromEntries(FIELDS.map((f) => [f, ""])), ...ORDER_DEFAULTS }),
  toForm: (row) => Object.fromEntries(FIELDS.map((f) => [f, row[f] === null || row[f] === undefined ? "" : String(row[f])])),
  toPayload: (values) => ({ ...values, amount: String(values.amount).replace(",", ".") }),
  validate: validateOrder,
  messages: { load: MSG_ORDERS_LOAD, save: MSG_SAVE, delete: MSG_DELETE },
};

export default function Orders(props) {
  return <ResourceSection config={ordersConfig} {...props} />;
}
