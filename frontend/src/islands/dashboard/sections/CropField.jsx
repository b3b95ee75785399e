/* Pick an image, then frame it in a crop fixed to 16:9 (react-easy-crop). Value: {file, area}. */
import { useEffect, useState } from "react";
import Cropper from "react-easy-crop";
import { SLIDESHOW_TYPES } from "../validation.js";
import { SLIDESHOW_ASPECT } from "./cropImage.js";

export default function CropField({ id, name, value, onChange, disabled, ...aria }) {
  const [src, setSrc] = useState("");
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const file = value && value.file;

  useEffect(() => {
    if (!file) {
      setSrc("");
      return undefined;
    }
    const url = URL.createObjectURL(file);
    setSrc(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  return (
    <div className="dash-crop-field">
      <input
        id={id}
        name={name}
        type="file"
        accept={SLIDESHOW_TYPES.join(",")}
        disabled={disabled}
        {...aria}
        onChange={(event) => {
          setCrop({ x: 0, y: 0 });
          setZoom(1);
          onChange(event.target.files[0] ? { file: event.target.files[0], area: null } : null);
        }}
      />
      {src && (
        <>
          <div className="dash-crop" data-testid="crop-area">
            <Cropper
              image={src}
              crop={crop}
              zoom={zoom}
              aspect={SLIDESHOW_ASPECT}
              onCropChange={setCrop}
              onZoomChange={setZoom}
              onCropComplete={(_, area) => onChange({ file, area })}
            />
          </div>
          <label htmlFor={`${id}-zoom`}>Zoom</label>
          <input id={`${id}-zoom`} type="range" min="1" max="3" step="0.05" value={zoom} onChange={(e) => setZoom(Number(e.target.value))} />
          <p className="help">Recadrage 16:9, envoyé en JPEG.</p>
        </>
      )}
    </div>
  );
}
