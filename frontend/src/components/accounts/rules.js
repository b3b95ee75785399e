/* Account rules mirrored in the browser for live feedback. The server (accounts/services/) decides; the
   messages come from the server through the page's props, so each text exists once. */

export const PHONE_RE = /^\d{10}$/;
export const POSTAL_CODE_RE = /^\d{5}$/;
// Close to Django's validate_email for what people type: something@domain.tld, no spaces.
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizePhone(phone) {
  return (phone || "").replace(/[\s.-]/g, "");
}

/** The registration checks, in the product's order: the first failing check's message, or "" when all pass. */
export function registrationError(values, messages, minLength = 6) {
  const v = (key) => (values[key] || "").trim();
  if (!v("last_name") || !v("first_name") || !v("email") || !(values.password || "")) return messages.required;
  if (!PHONE_RE.test(normalizePhone(values.phone))) return messages.phone;
  if (!EMAIL_RE.test(v("email"))) return messages.email;
  if (!POSTAL_CODE_RE.test(v("postal_code"))) return messages.postalCode;
  if ((values.password || "").length < minLength) return messages.passwordShort;
  if (values.password !== values.confirmPassword) return messages.passwordsDiffer;
  if (!values.acceptCGU) return messages.cgu;
  return "";
}

/** The fields a registration message is about, so they can be marked and the first one focused. */
export function registrationErrorFields(values, messages, message) {
  const blank = (key) => !(values[key] || "").trim();
  switch (message) {
    case messages.required:
      return ["last_name", "first_name", "email", "password"].filter((key) => (key === "password" ? !values.password : blank(key)));
    case messages.phone:
      return ["phone"];
    case messages.email:
      return ["email"];
    case messages.postalCode:
      return ["postal_code"];
    case messages.passwordShort:
      return ["password"];
    case messages.passwordsDiffer:
      return ["confirmPassword"];
    case messages.cgu:
      return ["acceptCGU"];
    default:
      return [];
  }
}

/** The field a server error names (ApplicationError's `field`, or the first of a serializer's `errors`). */
export function serverErrorFields(error) {
  const data = error && error.data;
  if (!data) return [];
  if (data.field) return [data.field];
  if (data.errors && typeof data.errors === "object") return Object.keys(data.errors);
  return [];
}

/** The live warning while the two passwords differ (shown once the confirmation has been typed into). */
export function mismatchWarning(password, confirmation, message) {
  return confirmation && password !== confirmation ? message : "";
}

/**
 * `length` characters drawn uniformly from `alphabet` with a cryptographic source
 * (rejection sampling, so no character is more likely than another).
 */
export function generatePassword(length, alphabet, random = (array) => crypto.getRandomValues(array)) {
  const limit = 256 - (256 % alphabet.length);
  const chars = [];
  while (chars.length < length) {
    const bytes = random(new Uint8Array(length * 2));
    for (const byte of bytes) {
      if (byte < limit && chars.length < length) chars.push(alphabet[byte % alphabet.length]);
    }
  }
  return chars.join("");
}

/* The French message the client shows for each error status, as docs/decisions.md 8-9 adjust them. `error` is an
   ApiError (status 0: no answer, -1: time-out) and `messages` the page's texts. */

export function loginErrorMessage(error, messages) {
  if (error.status === 0 || error.status === -1) return messages.network;
  if ([400, 401, 403, 429].includes(error.status) && error.message) return error.message;
  return messages.other;
}

export function registerErrorMessage(error, messages) {
  return (error.status > 0 && error.status < 500 && error.message) || messages.other;
}

export function confirmErrorMessage(error, messages) {
  return error.status === 400 ? messages.invalid : messages.other;
}

export function forgotErrorMessage(error, messages) {
  if (error.status === -1) return messages.timeout;
  if (error.status === 0) return messages.network;
  if (error.status >= 500) return messages["500"];
  return messages[String(error.status)] || messages.other;
}

export function resetErrorMessage(error, messages) {
  if (error.status === 0 || error.status === -1) return messages.network;
  if (error.status === 400) return error.message || messages["400"];
  if (error.status === 404) return messages["404"];
  if (error.status >= 500) return messages["500"];
  return messages.other;
}
