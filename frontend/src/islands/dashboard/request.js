/* JSON calls go through components/api.js; multipart uploads use XMLHttpRequest for upload progress. */
import { api, ApiError, csrfToken } from "../../components/api.js";

export function upload(path, { method = "POST", body, onProgress }) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    xhr.withCredentials = true;
    xhr.setRequestHeader("X-CSRFToken", csrfToken());
    xhr.setRequestHeader("Accept", "application/json");
    if (onProgress) {
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
      };
    }
    xhr.onload = () => {
      let data = null;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        data = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(100);
        resolve(data);
      } else {
        reject(new ApiError((data && (data.error || data.message)) || "", xhr.status, data));
      }
    };
    xhr.onerror = () => reject(new ApiError("network", 0, null));
    xhr.send(body);
  });
}

export function send(path, { method, body, onProgress }) {
  if (body instanceof FormData) return upload(path, { method, body, onProgress });
  return api(path, { method, body });
}

/** Field errors of the server's {error, message, errors: {field: [msgs]}} body, as {field: "msg"}. */
export function fieldErrors(error) {
  const errors = error && error.data && error.data.errors;
  if (!errors || typeof errors !== "object") return {};
  const out = {};
  for (const [field, messages] of Object.entries(errors)) {
    out[field] = Array.isArray(messages) ? messages.join(" ") : String(messages);
  }
  return out;
}

export function toFormData(values) {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    if (value instanceof Blob) data.append(key, value, value.name || `${key}.jpg`);
    else data.append(key, String(value));
  }
  return data;
}
