/* /forgot-password: trimmed e-mail required, POST with a 10 s time-out, a French error text per status. */
import { api } from "../../components/api.js";
import { onReady, readProps, setBusy, showError, showSuccess } from "../../components/accounts/dom.js";
import { forgotErrorMessage } from "../../components/accounts/rules.js";

onReady(() => {
  const props = readProps("accounts-forgot");
  const { messages } = props;
  const form = document.querySelector("[data-forgot-form]");
  if (!form) return;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const email = form.elements.email.value.trim();
    if (!email) {
      showError(form, messages.required, ["email"]);
      return;
    }
    setBusy(form, true);
    try {
      const data = await api("/api/users/forgot-password", { method: "POST", body: { email }, timeout: props.timeoutMs });
      showSuccess(form, (data && data.message) || messages.sent);
      form.elements.email.value = "";
    } catch (error) {
      showError(form, forgotErrorMessage(error, messages), error.status === 400 ? ["email"] : []);
    }
    setBusy(form, false);
  });
});
