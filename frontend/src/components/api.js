/* Islands call the API with the session cookie and the CSRF token; no token is kept in the browser's storage
   (docs/decisions.md 6). */
export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

export const MSG_NETWORK = "Le serveur ne répond pas. Vérifiez votre connexion.";
export const MSG_LOAD_FAILED = "Le chargement a échoué. Veuillez réessayer.";

export class ApiError extends Error {
  constructor(message, status, data) {
    super(message);
    this.status = status;
    this.data = data;
  }
}

/**
 * fetch() with JSON or FormData bodies. Resolves with the parsed body; rejects with ApiError whose
 * message is the server's `error`/`message` field when it has one. status 0 means no answer (network).
 */
export async function api(path, { method = "GET", body, timeout, signal } = {}) {
  const headers = { Accept: "application/json" };
  let payload = body;
  if (body !== undefined && !(body instanceof FormData)) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  if (method !== "GET") headers["X-CSRFToken"] = csrfToken();
  const controller = new AbortController();
  const timer = timeout ? setTimeout(() => controller.abort("timeout"), timeout) : null;
  if (signal) signal.addEventListener("abort", () => controller.abort(signal.reason));
  let response;
  try {
    response = await fetch(path, { method, headers, body: payload, credentials: "same-origin", signal: controller.signal });
  } catch (error) {
    const timedOut = controller.signal.reason === "timeout";
    throw new ApiError(timedOut ? "timeout" : "network", timedOut ? -1 : 0, null);
  } finally {
    if (timer) clearTimeout(timer);
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    throw new ApiError((data && (data.error || data.message)) || "", response.status, data);
  }
  return data;
}

/**
 * The French text to show for a failed call: the server's own `{error}` (or `{message}`) when it refused the request
 * (4xx: it says why, e.g. "Cette session est complète."); otherwise the island's `fallback` (a 5xx or no answer keeps
 * the page's own French message); with no fallback, the server's text or the network message.
 */
export function errorMessage(error, fallback = "") {
  if (!error) return "";
  if (error.status >= 400 && error.status < 500 && error.message) return error.message;
  if (fallback) return fallback;
  if (error.status > 0 && error.message) return error.message;
  return error.status === 0 || error.status === -1 ? MSG_NETWORK : MSG_LOAD_FAILED;
}
