/* /reset-password/<token>: the two passwords must match (live warning too); on success the message, a link to
   /login, and /login after 2 s, announced, with a button to stay for whoever reads slowly. */
import { api } from "../../components/api.js";
import {
  enablePasswordToggles,
  onReady,
  readProps,
  redirectWithNotice,
  setBusy,
  showError,
  showSuccess,
  watchMismatch,
} from "../../components/accounts/dom.js";
import { mismatchWarning, resetErrorMessage } from "../../components/accounts/rules.js";

onReady(() => {
  const props = readProps("accounts-reset");
  const { messages } = props;
  const form = document.querySelector("[data-reset-form]");
  if (!form) return;
  const password = form.elements.newPassword;
  const confirmation = form.elements.confirmPassword;
  enablePasswordToggles(form);
  watchMismatch(password, confirmation, form.querySelector("[data-password-mismatch]"), messages.passwordsDiffer, mismatchWarning);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (password.value !== confirmation.value) {
      showError(form, messages.passwordsDiffer, ["confirmPassword"]);
      return;
    }
    if (password.value.length < props.minPasswordLength) {
      showError(form, messages.passwordShort, ["newPassword"]);
      return;
    }
    setBusy(form, true);
    try {
      const data = await api(`/api/users/reset-password/${encodeURIComponent(props.token)}`, {
        method: "POST",
        body: { newPassword: password.value, confirmPassword: confirmation.value },
      });
      for (const element of form.elements) element.disabled = true;
      showSuccess(form, (data && data.message) || messages.success);
      form.querySelector("[data-after-success]")?.removeAttribute("hidden");
      redirectWithNotice(form.querySelector("[data-redirect-notice]"), { url: "/login", ms: props.redirectMs, messages });
    } catch (error) {
      showError(form, resetErrorMessage(error, messages));
      setBusy(form, false);
    }
  });
});
