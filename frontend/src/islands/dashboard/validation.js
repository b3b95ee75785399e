/* The admin form rules, mirrored in the browser (the server enforces them too).
   Each validator returns null when the values pass, else { message, errors: { field: message } }. */
import {
  MSG_FIELD_REQUIRED,
  MSG_FORM_INVALID,
  MSG_MEDIA_REQUIRED,
  MSG_ORDER_REQUIRED,
  MSG_PRICE_NUMBER,
  MSG_SESSION_PLACES_MIN,
  MSG_SLIDER_REQUIRED,
  MSG_SLIDER_TYPES,
  MSG_SLIDESHOW_REQUIRED,
  MSG_SLIDESHOW_TYPES,
  MSG_WEEKLY_CAP_INVALID,
  WEEKLY_CAP_MAX,
} from "./messages.js";

export const SESSION_DEFAULT_PLACES = 10;
export const SLIDER_TYPES = ["image/jpeg", "image/png", "image/gif"];
export const SLIDESHOW_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"];

const blank = (value) => value === undefined || value === null || String(value).trim() === "";

function required(values, names) {
  const errors = {};
  for (const name of names) if (blank(values[name])) errors[name] = MSG_FIELD_REQUIRED;
  return errors;
}

function result(errors, message = MSG_FORM_INVALID) {
  return Object.keys(errors).length ? { message, errors } : null;
}

export function validateSession(values) {
  const errors = required(values, ["course_id", "date", "instructor_id"]);
  const places = Number(values.max_attendees);
  if (!blank(values.max_attendees) && (!Number.isInteger(places) || places < 1)) {
    errors.max_attendees = MSG_SESSION_PLACES_MIN;
  }
  return result(errors);
}

export function validateTarif(values) {
  const errors = required(values, ["title", "price", "type"]);
  if (!errors.price && !Number.isFinite(Number(String(values.price).replace(",", ".")))) {
    errors.price = MSG_PRICE_NUMBER;
  }
  if (!blank(values.pass_weekly_cap)) {
    const text = String(values.pass_weekly_cap).trim();
    const cap = Number(text);
    if (!/^\d+$/.test(text) || cap > WEEKLY_CAP_MAX) errors.pass_weekly_cap = MSG_WEEKLY_CAP_INVALID;
  }
  return result(errors);
}

export function validateCourse(values) {
  return result(required(values, ["title", "description", "level"]));
}

export function validateTestimonial(values) {
  return result(required(values, ["name", "message"]));
}

export function validateInstructor(values) {
  return result(required(values, ["name"]));
}

export function validateUser(values) {
  return result(required(values, ["first_name", "last_name", "email"]));
}

export function validateSlider(values, mode = "add") {
  const file = values.image;
  if ((mode === "add" && !file) || blank(values.alt_text)) {
    const errors = {};
    if (mode === "add" && !file) errors.image = MSG_SLIDER_REQUIRED;
    if (blank(values.alt_text)) errors.alt_text = MSG_SLIDER_REQUIRED;
    return { message: MSG_SLIDER_REQUIRED, errors };
  }
  if (file && !SLIDER_TYPES.includes(file.type)) return { message: MSG_SLIDER_TYPES, errors: { image: MSG_SLIDER_TYPES } };
  return null;
}

export function validateSlideshow(values, mode = "add") {
  const file = values.image;
  if (mode === "add" && !file) return { message: MSG_SLIDESHOW_REQUIRED, errors: { image: MSG_SLIDESHOW_REQUIRED } };
  if (file && file.type && !SLIDESHOW_TYPES.includes(file.type)) {
    return { message: MSG_SLIDESHOW_TYPES, errors: { image: MSG_SLIDESHOW_TYPES } };
  }
  return null;
}

export function validateMedia(values, mode = "add") {
  const hasSource = Boolean(values.file) || !blank(values.external_url) || mode === "edit";
  if (blank(values.title) || !hasSource) {
    const errors = {};
    if (blank(values.title)) errors.title = MSG_MEDIA_REQUIRED;
    if (!hasSource) errors.file = MSG_MEDIA_REQUIRED;
    return { message: MSG_MEDIA_REQUIRED, errors };
  }
  return null;
}

/** Choosing a video file sets the media type to video. */
export function mediaTypeFor(file, current = "photo") {
  if (file && file.type && file.type.startsWith("video/")) return "video";
  if (file && file.type && file.type.startsWith("image/")) return "photo";
  return current;
}

export function validateOrder(values) {
  const errors = required(values, ["email", "order_id", "amount", "title", "date", "time"]);
  return result(errors, MSG_ORDER_REQUIRED);
}
