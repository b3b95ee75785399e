/* Home slideshow: a 16:9 crop before upload, sent as JPEG, with an upload progress bar. */
import { MSG_DELETE, MSG_SAVE, MSG_SLIDESHOW_LOAD } from "../messages.js";
import ResourceSection from "../ResourceSection.jsx";
import { toFormData } from "../request.js";
import { validateSlideshow } from "../validation.js";
import CropField from "./CropField.jsx";
import { cropToJpeg } from "./cropImage.js";
import { Thumb } from "./Thumb.jsx";

export const slideshowConfig = {
  key: "slideshow",
  title: "Diaporama de l'accueil",
  noun: "une image",
  endpoint: "/api/slideshow-images",
  itemPath: (row) => `/api/slideshow-images/${row.id}`,
  label: (row) => row.text_overlay || `Image ${row.id}`,
  columns: [
    { key: "image_url", label: "Image", render: (row) => <Thumb src={row.image_url} alt={row.text_overlay} /> },
    { key: "text_overlay", label: "Texte superposé" },
  ],
  fields: ({ mode }) => [
    { name: "image", label: "Image (JPEG, PNG, GIF ou WebP)", component: CropField, required: mode === "add" },
    { name: "text_overlay", label: "Texte superposé (facultatif)" },
  ],
  emptyValues: () => ({ image: null, text_overlay: "" }),
  toForm: (row) => ({ image: null, text_overlay: row.text_overlay || "" }),
  validate: (values, mode) => validateSlideshow({ image: values.image && values.image.file }, mode),
  toPayload: async (values) => {
    const { file, area } = values.image || {};
    const image = file ? await cropToJpeg(file, area || (await fullFrame(file))) : null;
    return toFormData({ image, text_overlay: values.text_overlay });
  },
  messages: { load: MSG_SLIDESHOW_LOAD, save: MSG_SAVE, delete: MSG_DELETE },
};

async function fullFrame(file) {
  // The cropper reports its area once the image has loaded; before that, take the centred 16:9 frame.
  const bitmap = await createImageBitmap(file);
  const width = Math.min(bitmap.width, Math.round((bitmap.height * 16) / 9));
  const height = Math.round((width * 9) / 16);
  return { x: Math.round((bitmap.width - width) / 2), y: Math.round((bitmap.height - height) / 2), width, height };
}

export default function Slideshow(props) {
  return <ResourceSection config={slideshowConfig} {...props} />;
}
