/* A small preview; a broken image falls back to the text 'Image non trouvée'. */
import { useState } from "react";

export const MSG_IMAGE_NOT_FOUND = "Image non trouvée";

export function Thumb({ src, alt }) {
  const [broken, setBroken] = useState(false);
  if (!src) return null;
  if (broken) return <span className="dash-thumb dash-thumb-broken">{MSG_IMAGE_NOT_FOUND}</span>;
  return <img className="dash-thumb" src={src} alt={alt || ""} loading="lazy" onError={() => setBroken(true)} />;
}
