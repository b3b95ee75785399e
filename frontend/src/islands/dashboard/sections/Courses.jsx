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
  ],
  emptyValues: () => ({ title: "", description: "", level: "Débutant", duration: "60", videoUrl: "", image: null, image_alt: "" }),
  toForm: (row) => ({
    title: row.title || "",
    description: row.description || "",
    level: row.level || "",
    duration: String(row.duration ?? ""),
    videoUrl: row.videoUrl || row.video_url || "",
    image: null,
    image_alt: row.image_alt || "",
  }),
  toPayload: (values) => {
    const payload = {
      title: values.title.trim(),
      description: values.description,
      level: values.level,
      ...(values.duration ? { duration: Number(values.duration) } : {}),
      videoUrl: values.videoUrl,
      image_alt: (values.image_alt || "").trim(),
    };
    return values.image ? toFormData({ ...payload, image: values.image }) : payload;
  },
  validate: validateCourse,
  messages: { load: MSG_COURSES_LOAD, save: MSG_SAVE, delete: MSG_DELETE },
};

export default function Courses(props) {
  return <ResourceSection config={coursesConfig} {...props} />;
}
