/* Home slider images: JPEG, PNG, GIF; image and alt text required. */
import { MSG_DELETE, MSG_SAVE, MSG_SLIDER_LOAD } from "../messages.js";
import ResourceSection from "../ResourceSection.jsx";
import { toFormData } from "../request.js";
import { SLIDER_TYPES, validateSlider } from "../validation.js";
import { Thumb } from "./Thumb.jsx";

export const sliderConfig = {
  key: "slider",
  title: "Slider",
  noun: "une image",
  endpoint: "/api/slider",
  itemPath: (row) => `/api/slider/${row.id}`,
  label: (row) => row.alt_text || `Image ${row.id}`,
  columns: [
    { key: "url", label: "Image", render: (row) => <Thumb src={row.url} alt={row.alt_text} /> },
    { key: "alt_text", label: "Texte alternatif" },
    { key: "description", label: "Description" },
  ],
  fields: ({ mode }) => [
    { name: "image", label: "Image (JPEG, PNG ou GIF)", type: "file", accept: SLIDER_TYPES.join(","), required: mode === "add" },
    { name: "alt_text", label: "Texte alternatif", required: true },
    { name: "description", label: "Description", type: "textarea" },
  ],
  emptyValues: () => ({ image: null, alt_text: "", description: "" }),
  toForm: (row) => ({ image: null, alt_text: row.alt_text || "", description: row.description || "" }),
  toPayload: (values) => toFormData(values),
  validate: validateSlider,
  messages: { load: MSG_SLIDER_LOAD, save: MSG_SAVE, delete: MSG_DELETE },
};

export default function Slider(props) {
  return <ResourceSection config={sliderConfig} {...props} />;
}
