/* /login: show/hide password, blank-field check, API login (opens the session cookie; nothing is stored in
   the browser), the French error text for each status, and a resend link for an unconfirmed e-mail. */
import { api } from "../../components/api.js";
import { enablePasswordToggles, onReady, readProps, setBusy, showError, showSuccess } from "../../components/accounts/dom.js";
import { loginErrorMessage } from "../../components/accounts/rules.js";

onReady(() => {
  const props = readProps("accounts-login");
  const { messages } = props;
  const form = document.querySelector("[data-login-form]");
  const resend = document.querySelector("[data-resend-form]");
  if (!form) return;
  enablePasswordToggles(form);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const email = form.elements.email.value.trim();
    const password = form.elements.password.value;
    if (!email || !password.trim()) {
      showError(form, messages.blank, [!email && "email", !password.trim() && "password"].filter(Boolean));
      return;
    }
    setBusy(form, true);
    try {
      await api("/api/users/login", { method: "POST", body: { email, password, remember: form.elements.remember.checked } });
      window.location.assign(props.next || "/");
      return;
    } catch (error) {
      // Wrong credentials are one error about the pair: its message alone, no list of "fields to correct".
      const credentials = error.status === 400 || error.status === 401;
      showError(form, loginErrorMessage(error, messages), credentials ? ["email", "password"] : [], { summary: false });
      if (resend) {
        resend.hidden = error.status !== 403;
        resend.querySelector("[data-resend-email]").value = email;
      }
    }
    setBusy(form, false);
  });

  resend?.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const data = await api("/api/users/resend-confirmation", { method: "POST", body: { email: resend.elements.email.value } });
      showSuccess(form, data.message || messages.resent);
      resend.hidden = true;
    } catch (error) {
      showError(form, loginErrorMessage(error, messages));
    }
  });
});
