/* The profile's "Ma déclaration de santé" (docs/decisions.md 48): the member's own health declaration read from the
   API (date, versions accepted, each answer), or what is still missing before booking. "Mettre à jour" opens the
   booking popup's questionnaire step here, loaded only then (the profile page loads no React otherwise). */
import { api } from "../../components/api.js";
import { onReady } from "../../components/accounts/dom.js";

export const MSG_NONE = "Vous n'avez pas encore rempli le questionnaire de santé : il vous sera demandé à votre première réservation.";
export const MSG_NOTHING_ASKED = "Le studio ne demande pas de déclaration de santé pour le moment.";
export const MSG_MISSING = "Avant votre prochaine réservation : ";
export const MISSING_LABELS = {
  questionnaire: "le questionnaire de santé",
  waiver: "la décharge de responsabilité",
  house_rules: "le règlement intérieur",
};
export const MSG_LOAD_FAILED = "Votre déclaration de santé n'a pas pu être chargée. Veuillez réessayer.";
export const LABEL_UPDATE = "Mettre à jour";
export const LABEL_SAVE = "Enregistrer ma déclaration";

function element(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

const frenchDate = (iso) => new Date(iso).toLocaleDateString("fr-FR", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/Paris" });

async function openStep(host, onDone) {
  const [{ createElement }, { createRoot }, { default: HealthStep }] = await Promise.all([
    import("react"),
    import("react-dom/client"),
    import("../calendar/HealthStep.jsx"),
  ]);
  const root = createRoot(host);
  const close = () => {
    root.unmount();
    host.replaceChildren();
  };
  root.render(
    createElement(HealthStep, {
      submitLabel: LABEL_SAVE,
      onCancel: close,
      onDone: () => {
        close();
        onDone();
      },
    }),
  );
}

export async function mountHealthSummary(root, { open = openStep } = {}) {
  const section = element("section", { class: "health-summary card", "aria-labelledby": "health-summary-title" });
  section.append(element("h2", { id: "health-summary-title" }, "Ma déclaration de santé"));
  const body = element("div");
  const step = element("div");
  const update = element("button", { type: "button", class: "button button-secondary" }, LABEL_UPDATE);
  const actions = element("p");
  actions.append(update);
  section.append(body, actions, step);
  root.replaceChildren(section);

  const show = async () => {
    body.replaceChildren();
    let current;
    let declaration = null;
    try {
      current = await api("/api/health/current");
      declaration = await api("/api/health/declaration").catch((error) => {
        if (error.status === 404) return null;
        throw error;
      });
    } catch (error) {
      body.append(element("p", { role: "alert" }, MSG_LOAD_FAILED));
      return;
    }
    if (declaration === null) {
      body.append(element("p", {}, (current.missing || []).length ? MSG_NONE : MSG_NOTHING_ASKED));
    } else {
      body.append(
        element("p", {}, `Remplie le ${frenchDate(declaration.signed_at)}, valable jusqu'au ${frenchDate(declaration.valid_until)}.`),
      );
      const versions = [
        declaration.questionnaire_version && `questionnaire version ${declaration.questionnaire_version}`,
        declaration.waiver_version && `décharge de responsabilité version ${declaration.waiver_version}`,
        declaration.house_rules_version && `règlement intérieur version ${declaration.house_rules_version}`,
      ].filter(Boolean);
      if (versions.length) body.append(element("p", { class: "help" }, `Accepté : ${versions.join(", ")}.`));
      const list = element("dl", { class: "health-answers" });
      for (const { question, answer } of declaration.answers) {
        list.append(element("dt", {}, question), element("dd", {}, answer === "oui" ? "Oui" : "Non"));
      }
      body.append(list);
    }
    const missing = (current.missing || []).map((kind) => MISSING_LABELS[kind] || kind);
    if (declaration !== null && missing.length) {
      body.append(element("p", { class: "form-info", role: "status" }, `${MSG_MISSING}${missing.join(", ")}.`));
    }
  };

  update.addEventListener("click", () => open(step, show));
  await show();
}

onReady(() => {
  const root = document.querySelector('[data-island="health-summary"]');
  if (root) mountHealthSummary(root);
});
