/* /reset-password/<token>: the two passwords must match (live warning too); on success /login after 2 s. */
import { api } from "../../components/api.js";
import {
  enablePasswordToggles,
  onReady,
  readProps,
  redirectAfter,
  setBusy,
  showError,
  showSuccess,
  watchMismatch,
} from "../accounts-shared/dom.js";
import { mismatchWarning, resetErrorMessage } from "../accounts-shared/rules.js";

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
      showSuccess(form, (data && data.message) || messages.success);
      redirectAfter("/login", props.redirectMs);
    } catch (error) {
      showError(form, resetErrorMessage(error, messages));
      setBusy(form, false);
    }
  });
});
