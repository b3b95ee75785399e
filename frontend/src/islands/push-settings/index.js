/* The profile's "Notifications sur ce téléphone" (docs/decisions.md 53): turn push on or off for this browser, and
   each kind for every device. Vanilla (the profile page loads no React). The browser's subscription is made through
   the service worker's registration; the site's VAPID public key comes from the API. */
import { api } from "../../components/api.js";
import { onReady } from "../../components/accounts/dom.js";

export const LABEL_TURN_ON = "Activer les notifications sur cet appareil";
export const LABEL_TURN_OFF = "Désactiver les notifications sur cet appareil";
export const MSG_UNSUPPORTED =
  "Ce navigateur ne reçoit pas de notifications. Sur iPhone, ajoutez d'abord le site à l'écran d'accueil.";
export const MSG_DENIED = "Les notifications sont bloquées pour ce site : autorisez-les dans les réglages du navigateur.";
export const MSG_FAILED = "Les notifications n'ont pas pu être modifiées. Veuillez réessayer.";
export const KINDS = [
  ["waitlist_offer", "Une place se libère sur une liste d'attente"],
  ["class_cancelled", "Le studio annule un de mes cours à la dernière minute"],
  ["reminder", "Rappels de mes cours"],
];
const PREFERENCES = "/api/push/preferences";

export function keyBytes(base64url) {
  const base64 = (base64url + "=".repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

async function registration(nav) {
  if (!nav.serviceWorker || typeof nav.serviceWorker.getRegistration !== "function") return null;
  const found = await nav.serviceWorker.getRegistration();
  return found && found.pushManager ? found : null;
}

function element(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

export async function mountPushSettings(root, { nav = navigator, notification = globalThis.Notification } = {}) {
  const section = element("section", { class: "push-settings card", "aria-labelledby": "push-settings-title" });
  section.append(element("h2", { id: "push-settings-title" }, "Notifications sur ce téléphone"));
  section.append(
    element("p", { class: "help" }, "En plus des e-mails, qui restent envoyés. Rien n'est envoyé entre 22 h et 8 h."),
  );
  const button = element("button", { type: "button", class: "button button-secondary" });
  const kinds = element("fieldset", { class: "push-kinds" });
  kinds.append(element("legend", {}, "Me prévenir quand"));
  const status = element("p", { role: "status" });
  const actions = element("p");
  actions.append(button);
  section.append(actions, kinds, status);
  root.replaceChildren(section);

  const say = (text) => (status.textContent = text || "");
  let prefs;
  try {
    prefs = await api(PREFERENCES);
  } catch (error) {
    say(error.message || MSG_FAILED);
    return;
  }
  const reg = prefs.enabled ? await registration(nav) : null;
  if (!reg) {
    button.hidden = true;
    kinds.hidden = true;
    say(MSG_UNSUPPORTED);
    return;
  }
  for (const [kind, label] of KINDS) {
    const box = element("input", { type: "checkbox", name: kind });
    box.checked = Boolean(prefs[kind]);
    box.addEventListener("change", async () => {
      try {
        say((await api(PREFERENCES, { method: "PUT", body: { [kind]: box.checked } })).message);
      } catch (error) {
        box.checked = !box.checked;
        say(error.message || MSG_FAILED);
      }
    });
    const line = element("label");
    line.append(box, ` ${label}`);
    const row = element("p");
    row.append(line);
    kinds.append(row);
  }
  let current = await reg.pushManager.getSubscription();
  const show = () => (button.textContent = current ? LABEL_TURN_OFF : LABEL_TURN_ON);
  show();
  button.addEventListener("click", async () => {
    say("");
    button.disabled = true;
    try {
      if (current) {
        const answer = await api("/api/push/subscriptions/delete", {
          method: "POST",
          body: { endpoint: current.endpoint },
        }).catch((error) => {
          if (error.status !== 404) throw error; // already forgotten by the site: unsubscribe the browser all the same
          return { message: error.message };
        });
        await current.unsubscribe();
        current = null;
        say(answer.message);
      } else {
        const permission = notification ? await notification.requestPermission() : "denied";
        if (permission !== "granted") {
          say(MSG_DENIED);
          return;
        }
        const subscription = await reg.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(prefs.public_key),
        });
        say((await api("/api/push/subscriptions", { method: "POST", body: subscription.toJSON() })).message);
        current = subscription;
      }
    } catch (error) {
      say(error.message || MSG_FAILED);
    } finally {
      button.disabled = false;
      show();
    }
  });
}

onReady(() => {
  const root = document.querySelector('[data-island="push-settings"]');
  if (root) mountPushSettings(root);
});
