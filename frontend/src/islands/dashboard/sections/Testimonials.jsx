/* Testimonials: list, add, edit, delete (docs/decisions.md 19). */
import { MSG_DELETE, MSG_SAVE } from "../messages.js";
import ResourceSection from "../ResourceSection.jsx";
import { validateTestimonial } from "../validation.js";

export const MSG_TESTIMONIALS_LOAD = "Erreur lors du chargement des témoignages.";

export const testimonialsConfig = {
  key: "testimonials",
  title: "Témoignages",
  noun: "un témoignage",
  endpoint: "/api/testimonials",
  itemPath: (row) => `/api/testimonials/${row.id}`,
  label: (row) => row.name,
  columns: [
    { key: "name", label: "Nom" },
    { key: "message", label: "Message", render: (row) => <span className="dash-clip">{row.message}</span> },
  ],
  fields: () => [
    { name: "name", label: "Nom", required: true },
    { name: "message", label: "Message", type: "textarea", required: true },
  ],
  emptyValues: () => ({ name: "", message: "" }),
  toForm: (row) => ({ name: row.name || "", message: row.message || "" }),
  toPayload: (values) => ({ name: values.name.trim(), message: values.message }),
  validate: validateTestimonial,
  messages: { load: MSG_TESTIMONIALS_LOAD, save: MSG_SAVE, delete: MSG_DELETE },
};

export default function Testimonials(props) {
  return <ResourceSection config={testimonialsConfig} {...props} />;
}
