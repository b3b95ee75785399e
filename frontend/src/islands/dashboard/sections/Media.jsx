/* Media library: title and a file or an external URL; a video file sets the type to video. */
import { MSG_DELETE, MSG_MEDIA_LOAD, MSG_SAVE } from "../messages.js";
import { MEDIA_TYPE_OPTIONS } from "../options.js";
import ResourceSection from "../ResourceSection.jsx";
import { toFormData } from "../request.js";
import { mediaTypeFor, validateMedia } from "../validation.js";
import { Thumb } from "./Thumb.jsx";

export const mediaConfig = {
  key: "media",
  title: "Médias",
  noun: "un média",
  endpoint: "/api/media",
  itemPath: (row) => `/api/media/${row.id}`,
  label: (row) => row.title,
  columns: [
    {
      key: "preview",
      label: "Aperçu",
      render: (row) =>
        row.media_type === "photo" && (row.file_url || row.file_path) ? (
          <Thumb src={row.file_url || row.file_path} alt={row.title} />
        ) : (
          <a href={row.external_url || row.file_url || row.file_path}>Ouvrir</a>
        ),
    },
    { key: "title", label: "Titre" },
    { key: "media_type", label: "Type", render: (row) => (row.media_type === "video" ? "Vidéo" : "Photo") },
    { key: "description", label: "Description" },
  ],
  fields: () => [
    { name: "title", label: "Titre", required: true },
    { name: "description", label: "Description", type: "textarea" },
    { name: "media_type", label: "Type", type: "select", noEmpty: true, options: MEDIA_TYPE_OPTIONS },
    { name: "file", label: "Fichier (photo ou vidéo)", type: "file", accept: "image/*,video/*" },
    { name: "external_url", label: "ou URL externe", type: "url" },
  ],
  emptyValues: () => ({ title: "", description: "", media_type: "photo", file: null, external_url: "" }),
  toForm: (row) => ({
    title: row.title || "",
    description: row.description || "",
    media_type: row.media_type || "photo",
    file: null,
    external_url: row.external_url || "",
  }),
  onFieldChange: (values, name, value) => (name === "file" ? { ...values, media_type: mediaTypeFor(value, values.media_type) } : values),
  toPayload: (values) => toFormData(values),
  validate: validateMedia,
  messages: { load: MSG_MEDIA_LOAD, save: MSG_SAVE, delete: MSG_DELETE },
};

export default function Media(props) {
  return <ResourceSection config={mediaConfig} {...props} />;
}
