/* Contact messages: list, view (/messages/<id>), delete. */
import { formatDateTime } from "../format.js";
import { MSG_MESSAGE_DELETE, MSG_MESSAGES_LOAD } from "../messages.js";
import ResourceSection from "../ResourceSection.jsx";

export const contactMessagesConfig = {
  key: "contact-messages",
  title: "Messages de contact",
  endpoint: "/api/contact-messages",
  itemPath: (row) => `/api/contact-messages/${row.id}`,
  label: (row) => `le message de ${row.name}`,
  serverPaged: true,
  defaultOrdering: "-last_activity_at",
  columns: [
    { key: "created_at", label: "Reçu le", sort: "created_at", render: (row) => formatDateTime(row.created_at) },
    { key: "name", label: "Nom", sort: "name", render: (row) => (row.unread || row.is_read === false ? <strong>{row.name}</strong> : row.name) },
    { key: "email", label: "E-mail" },
    { key: "subject", label: "Sujet" },
    { key: "message_text", label: "Message", render: (row) => <span className="dash-clip">{row.message_text ?? row.message}</span> },
  ],
  rowActions: (row) => (
    <a className="button button-small" href={`/messages/${row.id}`}>
      Voir<span className="visually-hidden"> le message de {row.name}</span>
    </a>
  ),
  messages: { load: MSG_MESSAGES_LOAD, delete: MSG_MESSAGE_DELETE },
};

export default function ContactMessages(props) {
  return <ResourceSection config={contactMessagesConfig} {...props} />;
}
