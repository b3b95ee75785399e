/* /register: the registration checks, in order, before sending, the live "passwords differ" warning, the password
   generator, then POST /api/users/register; on 201 the success text shows, in view, and stays. */
import { api } from "../../components/api.js";
import {
  enablePasswordToggles,
  formValues,
  onReady,
  readProps,
  setBusy,
  setPasswordVisible,
  showError,
  showSuccess,
  watchMismatch,
} from "../../components/accounts/dom.js";
import { generatePassword, mismatchWarning, registerErrorMessage, registrationError, registrationErrorFields, serverErrorFields } from "../../components/accounts/rules.js";

onReady(() => {
  const props = readProps("accounts-register");
  const { messages } = props;
  const form = document.querySelector("[data-register-form]");
  if (!form) return;
  const password = form.elements.password;
  const confirmation = form.elements.confirmPassword;
  enablePasswordToggles(form);
  const updateMismatch = watchMismatch(
    password,
    confirmation,
    form.querySelector("[data-password-mismatch]"),
    messages.passwordsDiffer,
    mismatchWarning,
  );

  const generator = form.querySelector("[data-password-generate]");
  generator.hidden = false;
  generator.addEventListener("click", () => {
    const value = generatePassword(props.passwordLength, props.passwordAlphabet);
    password.value = value;
    confirmation.value = value;
    // Shown in clear so the member can note it down.
    for (const toggle of form.querySelectorAll("[data-password-toggle]")) setPasswordVisible(toggle, true);
    updateMismatch();
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const values = formValues(form);
    const problem = registrationError(values, messages, props.minPasswordLength);
    if (problem) {
      showError(form, problem, registrationErrorFields(values, messages, problem));
      return;
    }
    setBusy(form, true);
    try {
      const data = await api("/api/users/register", { method: "POST", body: values });
      // The message stays, with no redirect: the next step is in the mailbox, and a reader must have time to see it.
      for (const element of form.elements) element.disabled = true;
      showSuccess(form, (data && data.message) || messages.success);
      form.querySelector("[data-after-success]")?.removeAttribute("hidden");
    } catch (error) {
      showError(form, registerErrorMessage(error, messages), serverErrorFields(error));
      setBusy(form, false);
    }
  });
});
