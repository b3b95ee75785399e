/* Draws the chosen 16:9 area of an image on a canvas and returns it as a JPEG file, the slideshow's format. */
export const SLIDESHOW_ASPECT = 16 / 9;
export const MAX_OUTPUT_WIDTH = 1920;
export const JPEG_QUALITY = 0.9;

export function outputSize(area, maxWidth = MAX_OUTPUT_WIDTH) {
  const scale = area.width > maxWidth ? maxWidth / area.width : 1;
  return { width: Math.round(area.width * scale), height: Math.round(area.height * scale) };
}

function loadImage(src) {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = reject;
    image.src = src;
  });
}

export async function cropToJpeg(file, area) {
  const url = URL.createObjectURL(file);
  try {
    const image = await loadImage(url);
    const { width, height } = outputSize(area);
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext("2d");
    context.fillStyle = "#fff"; // transparent PNG/GIF areas become white in the JPEG
    context.fillRect(0, 0, width, height);
    context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, width, height);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", JPEG_QUALITY));
    const name = `${(file.name || "image").replace(/\.[^.]+$/, "")}.jpg`;
    return new File([blob], name, { type: "image/jpeg" });
  } finally {
    URL.revokeObjectURL(url);
  }
}
