/* Courses: title, description, level (SPEC.md 7). */
import { MSG_COURSES_LOAD, MSG_DELETE, MSG_SAVE } from "../messages.js";
import { LEVEL_OPTIONS } from "../options.js";
import ResourceSection from "../ResourceSection.jsx";
import { validateCourse } from "../validation.js";

export const coursesConfig = {
  key: "courses",
  title: "Cours",
  noun: "un cours",
  endpoint: "/api/courses",
  itemPath: (row) => `/api/courses/${row.id}`,
  label: (row) => row.title,
  columns: [
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
  ],
  emptyValues: () => ({ title: "", description: "", level: "Débutant", duration: "60", videoUrl: "" }),
  toForm: (row) => ({
    title: row.title || "",
    description: row.description || "",
    level: row.level || "",
    duration: String(row.duration ?? ""),
    videoUrl: row.videoUrl || row.video_url || "",
  }),
  toPayload: (values) => ({
    title: values.title.trim(),
    description: values.description,
    level: values.level,
    ...(values.duration ? { duration: Number(values.duration) } : {}),
    videoUrl: values.videoUrl,
  }),
  validate: validateCourse,
  messages: { load: MSG_COURSES_LOAD, save: MSG_SAVE, delete: MSG_DELETE },
};

export default function Courses(props) {
  return <ResourceSection config={coursesConfig} {...props} />;
}
