/* /user/profile: view and edit modes without a reload, avatar preview and checks, phone and postal code
   checked as at registration. Saving is a normal form post: the page reloads in view mode with the message, which
   stays in the page (role="status", focused and in view, rather than a toast that vanishes before it is read). */
import { bringIntoView, onReady, readProps, showError } from "../../components/accounts/dom.js";
import { normalizePhone, PHONE_RE, POSTAL_CODE_RE } from "../../components/accounts/rules.js";

const AVATAR_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"];

onReady(() => {
  const props = readProps("accounts-profile");
  const { messages } = props;
  const view = document.querySelector("[data-profile-view]");
  const panel = document.querySelector("[data-profile-edit-panel]");
  const form = document.querySelector("[data-profile-form]");
  const saved = document.querySelector("[data-profile-saved]");
  if (saved && !view?.hidden) {
    bringIntoView(saved);
    saved.focus({ preventScroll: true });
  }
  if (!view || !panel || !form) return;

  for (const img of document.querySelectorAll("img[data-fallback]")) {
    img.addEventListener("error", () => {
      if (img.src !== img.dataset.fallback) img.src = img.dataset.fallback;
    });
  }

  const setMode = (edit) => {
    view.hidden = edit;
    panel.hidden = !edit;
    if (edit) form.elements.first_name.focus();
    else document.querySelector("[data-profile-edit]")?.focus();
  };
  document.querySelector("[data-profile-edit]")?.addEventListener("click", (event) => {
    event.preventDefault();
    setMode(true);
  });
  document.querySelector("[data-profile-cancel]")?.addEventListener("click", (event) => {
    if (new URLSearchParams(window.location.search).get("edit") === "1") return; // came in edit mode: follow the link
    event.preventDefault();
    form.reset();
    showError(form, "");
    setMode(false);
  });

  const avatar = form.elements.avatar;
  const preview = form.querySelector("[data-avatar-preview]");
  const original = preview?.src;
  avatar?.addEventListener("change", () => {
    const file = avatar.files[0];
    showError(form, "");
    if (!file) {
      if (preview) preview.src = original;
      return;
    }
    if (!AVATAR_TYPES.includes(file.type)) {
      showError(form, messages.avatar, ["avatar"]);
      avatar.value = "";
      return;
    }
    if (file.size > props.maxAvatarBytes) {
      showError(form, messages.avatarTooLarge, ["avatar"]);
      avatar.value = "";
      return;
    }
    if (preview) preview.src = URL.createObjectURL(file);
  });

  form.addEventListener("submit", (event) => {
    const value = (name) => (form.elements[name]?.value || "").trim();
    let problem = "";
    let fields = [];
    if (!value("first_name") || !value("last_name")) {
      problem = messages.names;
      fields = ["first_name", "last_name"].filter((name) => !value(name));
    } else if (!PHONE_RE.test(normalizePhone(value("phone")))) [problem, fields] = [messages.phone, ["phone"]];
    else if (!POSTAL_CODE_RE.test(value("postal_code"))) [problem, fields] = [messages.postalCode, ["postal_code"]];
    if (problem) {
      event.preventDefault();
      showError(form, problem, fields);
    }
  });
});
