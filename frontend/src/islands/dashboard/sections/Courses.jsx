/* Courses: title, description, level, and the course's picture (sent as multipart when a new one is chosen; the
   server checks it by content and size, docs/decisions.md 22, and makes its WebP/JPEG renditions). */
import { MSG_COURSES_LOAD, MSG_DELETE, MSG_SAVE } from "../messages.js";
import { LEVEL_OPTIONS } from "../options.js";
import { toFormData } from "../request.js";
import ResourceSection from "../ResourceSection.jsx";
import { validateCourse } from "../validation.js";
import { Thumb } from "./Thumb.jsx";

export const coursesConfig = {
  key: "courses",
  title: "Cours",
  noun: "un cours",
  endpoint: "/api/courses",
  itemPath: (row) => `/api/courses/${row.id}`,
  label: (row) => row.title,
  columns: [
    { key: "image_url", label: "Photo", render: (row) => <Thumb src={row.image_url} alt={row.image_alt || ""} /> },
    { key: "title", label: "Titre" },
    { key: "level", label: "Niveau" },
    { key: "duration", label: "Durée (min)" },
    { key: "description", label: "Description", render: (row) => <span className="dash-clip">{row.description}</span> },
  ],
  fields: () => [
    { name: "title", label: "Titre", required: true },
    { name: "description", label: "Description", type: "textarea", required: true },
    { name: "level", label: "Niveau", type: "select", required: true, options: LEVEL_OPTIONS },
    { name: "duration", label: "Durée (minutes)", type: "number", min: 1, step: 1 },
    { name: "videoUrl", label: "Vidéo (URL, facultatif)", type: "url" },
    {
      name: "image",
      label: "Photo du cours (JPEG, PNG, GIF ou WebP, facultatif)",
      type: "file",
      accept: "image/jpeg,image/png,image/gif,image/webp",
    },
    { name: "image_alt", label: "Texte alternatif de la photo" },
    // docs/decisions.md 44-45: the course's windows; blank opening fields take the studio's settings.
    {
      name: "free_cancellation_hours",
      label: "Annulation gratuite (heures avant le cours)",
      type: "number",
      min: 0,
      max: 168,
      step: 1,
      help: "Ensuite, annulation tardive : le studio conserve le crédit ou le paiement, sauf si la place est reprise.",
    },
    { name: "booking_opens_days_before", label: "Ouverture des réservations (jours avant le cours)", type: "number", min: 0, max: 365, step: 1, help: "Vide : le réglage du studio." },
    { name: "booking_opens_time", label: "Heure d'ouverture des réservations", type: "time", help: "Vide : le réglage du studio." },
  ],
  emptyValues: () => ({
    title: "",
    description: "",
    level: "Débutant",
    duration: "60",
    videoUrl: "",
    image: null,
    image_alt: "",
    free_cancellation_hours: "24",
    booking_opens_days_before: "",
    booking_opens_time: "",
  }),
  toForm: (row) => ({
    title: row.title || "",
    description: row.description || "",
    level: row.level || "",
    duration: String(row.duration ?? ""),
    videoUrl: row.videoUrl || row.video_url || "",
    image: null,
    image_alt: row.image_alt || "",
    free_cancellation_hours: String(row.free_cancellation_hours ?? 24),
    booking_opens_days_before: row.booking_opens_days_before === null || row.booking_opens_days_before === undefined ? "" : String(row.booking_opens_days_before),
    booking_opens_time: row.booking_opens_time || "",
  }),
  toPayload: (values) => {
    const payload = {
      title: values.title.trim(),
      description: values.description,
      level: values.level,
      ...(values.duration ? { duration: Number(values.duration) } : {}),
      videoUrl: values.videoUrl,
      image_alt: (values.image_alt || "").trim(),
      ...(String(values.free_cancellation_hours ?? "").trim() !== "" ? { free_cancellation_hours: Number(values.free_cancellation_hours) } : {}),
      booking_opens_days_before: String(values.booking_opens_days_before ?? "").trim() === "" ? null : Number(values.booking_opens_days_before),
      booking_opens_time: values.booking_opens_time || null,
    };
    if (!values.image) return payload;
    // Multipart has no null: an empty value clears an override.
    const blanks = { booking_opens_days_before: payload.booking_opens_days_before ?? "", booking_opens_time: payload.booking_opens_time ?? "" };
    return toFormData({ ...payload, ...blanks, image: values.image });
  },
  validate: validateCourse,
  messages: { load: MSG_COURSES_LOAD, save: MSG_SAVE, delete: MSG_DELETE },
};

export default function Courses(props) {
  return <ResourceSection config={coursesConfig} {...props} />;
}
