import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

// StripePane (frontend/src/components/payment/StripePane.jsx) through the island's lazy wrapper of it.
vi.mock("./stripePane.js", () => ({
  StripePane: ({ clientSecret, mode, onConfirmed, onError }) => (
    <div data-testid="stripe-pane" data-secret={clientSecret} data-mode={mode}>
      <button type="button" onClick={() => onConfirmed({ setupIntentId: "seti_1" })}>
        Confirmer (Stripe)
      </button>
      <button type="button" onClick={() => onError("Votre carte a été refusée.")}>
        Échouer (Stripe)
      </button>
    </div>
  ),
}));

import SavedMethod, { METHOD_URLS, MSG_NO_METHOD, MSG_SAVE_FAILED, MSG_SAVED } from "./SavedMethod.jsx";

// Generous waits: the machine running the suite may be busy; nothing here depends on time.
const WAIT = { timeout: 5000 };
const MANDATE = "En signant ce formulaire de mandat, vous autorisez Studio Pole Danse Lyon à envoyer des instructions à votre banque.";
const CARD = { id: 1, kind: "card", label: "Carte •••• 4242, expire 12/28" };
const SEPA = { id: 2, kind: "sepa_debit", label: "Prélèvement SEPA FR76 •••• 1234, mandat du 29/11/2026" };

function answer(status, body) {
  return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
}

function server(routes) {
  return vi.spyOn(globalThis, "fetch").mockImplementation((url) => {
    const path = String(url).split("?")[0];
    const route = routes[path];
    return route ? answer(...route) : answer(404, { error: "?" });
  });
}

function bodyOf(fetchMock, url) {
  const call = fetchMock.mock.calls.find(([called]) => called === url);
  return JSON.parse(call[1].body);
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

// The button shows at once, disabled until the saved method's state has loaded: wait for it to be usable.
async function openForm() {
  const button = await screen.findByRole("button", { name: "Enregistrer un moyen de paiement" }, WAIT);
  await waitFor(() => expect(button.disabled).toBe(false), WAIT);
  fireEvent.click(button);
}

describe("SavedMethod wording", () => {
  it("says what it did in French", () => {
    expect(MSG_SAVED).toBe("✅ Moyen de paiement enregistré : il paiera les prochaines échéances.");
    expect(MSG_SAVE_FAILED).toBe("Le moyen de paiement n'a pas pu être enregistré. Veuillez réessayer.");
    expect(MSG_NO_METHOD).toBe("Aucun moyen de paiement enregistré pour les prochaines échéances.");
  });
});

describe("SavedMethod with the simulator", () => {
  it("shows the saved card and replaces it by a signed SEPA mandate", async () => {
    const fetchMock = server({
      [METHOD_URLS.state]: [200, { provider: "simulator", publishableKey: "", mandateText: MANDATE, method: CARD }],
      [METHOD_URLS.sepa]: [201, SEPA],
    });
    const onSaved = vi.fn();
    render(<SavedMethod label={CARD.label} onSaved={onSaved} />);
    expect(await screen.findByText("Payé par : Carte •••• 4242, expire 12/28", {}, WAIT)).toBeTruthy();
    fireEvent.click(await screen.findByRole("button", { name: "Remplacer le moyen de paiement" }, WAIT));
    fireEvent.click(screen.getByLabelText("Prélèvement SEPA"));
    expect(screen.getByText(MANDATE)).toBeTruthy();
    fireEvent.change(screen.getByLabelText("IBAN"), { target: { value: "FR14 2004 1010 0505 0001 3M02 606" } });
    fireEvent.change(screen.getByLabelText("Titulaire du compte"), { target: { value: "Emma Petit" } });
    fireEvent.click(screen.getByLabelText(/J'accepte le mandat de prélèvement SEPA/));
    fireEvent.click(screen.getByRole("button", { name: "Signer le mandat" }));
    expect(await screen.findByText(MSG_SAVED, {}, WAIT)).toBeTruthy();
    expect(screen.getByText("Payé par : Prélèvement SEPA FR76 •••• 1234, mandat du 29/11/2026")).toBeTruthy();
    expect(bodyOf(fetchMock, METHOD_URLS.sepa)).toEqual({ iban: "FR14 2004 1010 0505 0001 3M02 606", holder: "Emma Petit", accepted: true });
    await waitFor(() => expect(onSaved).toHaveBeenLastCalledWith(SEPA));
  });

  it("shows the server's French refusal of a mandate", async () => {
    const refusal = "Acceptez le mandat de prélèvement SEPA pour l'enregistrer.";
    server({
      [METHOD_URLS.state]: [200, { provider: "simulator", publishableKey: "", mandateText: MANDATE, method: null }],
      [METHOD_URLS.sepa]: [400, { error: refusal, errors: { accepted: [refusal] } }],
    });
    render(<SavedMethod />);
    expect(await screen.findByText(MSG_NO_METHOD, {}, WAIT)).toBeTruthy();
    await openForm();
    fireEvent.click(screen.getByLabelText("Prélèvement SEPA"));
    fireEvent.click(screen.getByRole("button", { name: "Signer le mandat" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe(refusal), WAIT);
  });

  it("saves a simulated card that will be refused", async () => {
    const fetchMock = server({
      [METHOD_URLS.state]: [200, { provider: "simulator", publishableKey: "", mandateText: MANDATE, method: null }],
      [METHOD_URLS.card]: [201, { ...CARD, label: "Carte •••• 0002, expire 12/28" }],
    });
    render(<SavedMethod />);
    await openForm();
    fireEvent.change(screen.getByLabelText("Carte simulée (démonstration)"), { target: { value: "declines" } });
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer la carte" }));
    expect(await screen.findByText("Payé par : Carte •••• 0002, expire 12/28", {}, WAIT)).toBeTruthy();
    expect(bodyOf(fetchMock, METHOD_URLS.card)).toEqual({ scenario: "declines" });
  });
});

describe("SavedMethod with Stripe", () => {
  it("confirms a SetupIntent in the Payment Element, then has the server save it", async () => {
    const fetchMock = server({
      [METHOD_URLS.state]: [200, { provider: "stripe", publishableKey: "pk_test_1", mandateText: MANDATE, method: null }],
      [METHOD_URLS.setup]: [201, { setupIntentId: "seti_1", clientSecret: "seti_1_secret_x", publishableKey: "pk_test_1" }],
      [METHOD_URLS.complete]: [200, SEPA],
    });
    render(<SavedMethod />);
    await openForm();
    fireEvent.click(screen.getByLabelText("Prélèvement SEPA"));
    expect(screen.queryByLabelText("IBAN")).toBeNull(); // Stripe's own fields ask it
    fireEvent.click(screen.getByRole("button", { name: "Continuer" }));
    const pane = await screen.findByTestId("stripe-pane", {}, WAIT);
    expect([pane.dataset.secret, pane.dataset.mode]).toEqual(["seti_1_secret_x", "setup"]);
    expect(bodyOf(fetchMock, METHOD_URLS.setup)).toEqual({ kind: "sepa_debit" });
    fireEvent.click(screen.getByRole("button", { name: "Confirmer (Stripe)" }));
    expect(await screen.findByText(MSG_SAVED, {}, WAIT)).toBeTruthy();
    expect(bodyOf(fetchMock, METHOD_URLS.complete)).toEqual({ setupIntentId: "seti_1" });
    expect(screen.getByText(`Payé par : ${SEPA.label}`)).toBeTruthy();
  });

  it("shows Stripe's French error and the server's refusal", async () => {
    const refusal = "Votre moyen de paiement n'a pas été enregistré. Réessayez ou choisissez-en un autre.";
    server({
      [METHOD_URLS.state]: [200, { provider: "stripe", publishableKey: "pk_test_1", mandateText: MANDATE, method: null }],
      [METHOD_URLS.setup]: [201, { setupIntentId: "seti_1", clientSecret: "seti_1_secret_x", publishableKey: "pk_test_1" }],
      [METHOD_URLS.complete]: [402, { error: refusal }],
    });
    render(<SavedMethod />);
    await openForm();
    fireEvent.click(screen.getByRole("button", { name: "Continuer" }));
    fireEvent.click(await screen.findByRole("button", { name: "Échouer (Stripe)" }, WAIT));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("Votre carte a été refusée."));
    fireEvent.click(screen.getByRole("button", { name: "Confirmer (Stripe)" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe(refusal), WAIT);
  });
});
