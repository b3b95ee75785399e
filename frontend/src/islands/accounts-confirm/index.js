/* /confirm-email/<token>: loading, then the success message with a "Se connecter" link, and /login after 3 s,
   announced, with a button to stay for whoever reads slowly; or an error with a link to
   /register. The call runs once per page load. */
import { api } from "../../components/api.js";
import { onReady, readProps, redirectWithNotice } from "../../components/accounts/dom.js";
import { confirmErrorMessage } from "../../components/accounts/rules.js";

let started = false;

function render(region, state, text) {
  region.dataset.confirmState = state;
  region.replaceChildren();
  const paragraph = document.createElement("p");
  paragraph.textContent = text;
  if (state === "loading") {
    const spinner = document.createElement("span");
    spinner.className = "spinner";
    spinner.setAttribute("aria-hidden", "true");
    paragraph.prepend(spinner);
  } else {
    paragraph.className = state === "success" ? "form-success" : "form-error";
  }
  region.append(paragraph);
  if (state === "success" || state === "error") {
    const link = document.createElement("a");
    link.href = state === "success" ? "/login" : "/register";
    link.textContent = state === "success" ? "Se connecter" : "Retour à l'inscription";
    if (state === "success") link.className = "button";
    const p = document.createElement("p");
    p.append(link);
    region.append(p);
  }
}

onReady(async () => {
  if (started) return;
  started = true;
  const props = readProps("accounts-confirm");
  const region = document.querySelector("[data-confirm-state]");
  if (!region || !props.token) return;
  render(region, "loading", props.messages.loading);
  try {
    const data = await api(`/api/users/validate-email/${encodeURIComponent(props.token)}`);
    render(region, "success", (data && data.message) || props.messages.success);
    redirectWithNotice(document.querySelector("[data-redirect-notice]"), { url: "/login", ms: props.redirectMs, messages: props.messages });
  } catch (error) {
    render(region, "error", confirmErrorMessage(error, props.messages));
  }
});
