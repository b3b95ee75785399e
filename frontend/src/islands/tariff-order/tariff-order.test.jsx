import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("../../components/toast.jsx", () => ({ notify: vi.fn() }));
// StripePane (frontend/src/components/payment/StripePane.jsx), lazily loaded by the saved method's pane.
vi.mock("../subscription-pay/stripePane.js", () => ({ StripePane: () => null }));
// PayPal's JS SDK stands in as a button that calls createSubscription, as PayPal's does when clicked.
vi.mock("./PayPalSubscriptionPane.jsx", () => ({
  default: ({ createSubscription }) => (
    <button type="button" onClick={() => createSubscription().catch(() => {})}>
      Bouton PayPal
    </button>
  ),
}));

import { notify } from "../../components/toast.jsx";
import { MSG_DECLINES_LATER } from "../../components/payment/messages.js";
import { MSG_LOGIN_REQUIRED, MSG_REDUCED_CONFIRM, MSG_REDUCED_STATUS, normalizeQuantity } from "./messages.js";
import TariffOrder from "./TariffOrder.jsx";
import { polyfillDialog } from "../../testing/dialog.js";

// The saved method's pane is a lazy chunk: generous waits on a busy machine (nothing here depends on time).
const WAIT = { timeout: 5000 };
const CONFIG = { provider: "simulator", clientId: "", currency: "EUR" };
const MEMBER = { first_name: "Emma", last_name: "Petit", email: "emma@example.fr" };

function page() {
  document.body.insertAdjacentHTML(
    "beforeend",
    `<div id="cards"><form action="/tarifs/commander"><button type="submit" data-tariff-order data-tariff-id="4" data-tariff-title="Carte de 10 cours" data-tariff-price="190.00">Commander</button></form></div>`,
  );
}

polyfillDialog();

beforeEach(() => {
  vi.mocked(notify).mockClear();
  page();
});
afterEach(() => {
  cleanup();
  document.getElementById("cards")?.remove();
});

describe("tariff order rules", () => {
  it("keeps the order form's wording and quantity rule", () => {
    expect(MSG_LOGIN_REQUIRED).toBe("Vous devez être connecté pour effectuer une réservation.");
    expect(normalizeQuantity("0")).toBe(1);
    expect(normalizeQuantity("abc")).toBe(1);
    expect(normalizeQuantity("3")).toBe(3);
  });
});

describe("TariffOrder", () => {
  it("tells visitors to log in and opens nothing", () => {
    render(<TariffOrder user={null} paymentConfig={CONFIG} />);
    fireEvent.click(screen.getByRole("button", { name: "Commander" }));
    expect(notify).toHaveBeenCalledWith(MSG_LOGIN_REQUIRED, "warning");
    expect(screen.queryByLabelText("Quantité")).toBeNull();
  });

  it("opens for members with quantity 1, totals to 2 decimals, and resets the quantity on reopening", () => {
    render(<TariffOrder user={MEMBER} paymentConfig={CONFIG} />);
    fireEvent.click(screen.getByRole("button", { name: "Commander" }));
    const quantity = screen.getByLabelText("Quantité");
    expect(quantity.value).toBe("1");
    expect(screen.getByText("190,00 €", { selector: "[data-total]" })).toBeTruthy();
    fireEvent.change(quantity, { target: { value: "3" } });
    expect(screen.getByText("570,00 €", { selector: "[data-total]" })).toBeTruthy();
    fireEvent.change(quantity, { target: { value: "0" } });
    fireEvent.blur(quantity);
    expect(quantity.value).toBe("1");
    fireEvent.change(quantity, { target: { value: "2" } });
    fireEvent.click(screen.getAllByRole("button", { name: "Annuler" }).at(-1));
    expect(screen.queryByLabelText("Quantité")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Commander" }));
    expect(screen.getByLabelText("Quantité").value).toBe("1");
  });
});

describe("TariffOrder for a subscription billed per period", () => {
  const OFFER = { tariff_id: 4, per_period: true, reduced: true, period_months: 1, periods_committed: 12, amount: "44.00" };
  const CARD = { id: 1, kind: "card", label: "Carte •••• 4242, expire 12/28" };
  const SAVED = { provider: "simulator", publishableKey: "", mandateText: "En signant ce formulaire de mandat…", method: CARD };

  function answer(status, body) {
    return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
  }

  afterEach(() => vi.restoreAllMocks());

  it("asks the reduced-rate confirmation before paying and sends it with the order", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation((url, options = {}) => {
      if (String(url).startsWith("/api/subscriptions/offers/4")) return answer(200, OFFER);
      if (String(url).startsWith("/api/subscriptions/method")) return answer(200, SAVED);
      if (url === "/api/subscriptions/reduced-proofs") return answer(201, { id: 9 });
      if (url === "/api/paypal/create-order") return answer(201, { id: "SIM-1", status: "CREATED", amount: "44.00", currency: "EUR" });
      return answer(404, { error: "?" });
    });
    render(<TariffOrder user={MEMBER} paymentConfig={CONFIG} />);
    fireEvent.click(screen.getByRole("button", { name: "Commander" }));
    expect(await screen.findByText(/par mois, engagement de 12 échéances/)).toBeTruthy();
    expect(screen.queryByLabelText("Quantité")).toBeNull(); // a subscription is bought once
    const pay = await screen.findByRole("button", { name: /^Payer/ });
    expect(pay.disabled).toBe(true);
    expect(screen.getByText(MSG_REDUCED_CONFIRM)).toBeTruthy();
    fireEvent.click(await screen.findByLabelText(/Je confirme être étudiant/, {}, WAIT)); // the fields load with the reduced rate
    expect(await screen.findByText(MSG_REDUCED_STATUS, { selector: "[role=alert]" })).toBeTruthy();
    fireEvent.click(screen.getByLabelText("Étudiant(e)"));
    const file = new File(["x"], "carte.png", { type: "image/png" });
    fireEvent.change(screen.getByLabelText(/Justificatif \(facultatif\)/), { target: { files: [file] } });
    expect(await screen.findByText("Justificatif reçu. (carte.png)")).toBeTruthy();
    expect(await screen.findByText("Payé par : Carte •••• 4242, expire 12/28", {}, WAIT)).toBeTruthy(); // the saved card
    await waitFor(() => expect(pay.disabled).toBe(false));
    fireEvent.click(pay);
    expect(screen.getByRole("alert").textContent).toBe("Veuillez accepter les conditions générales de vente.");
    fireEvent.click(screen.getByRole("checkbox", { name: /J'accepte les conditions générales de vente/ }));
    fireEvent.click(pay);
    expect(await screen.findByRole("button", { name: MSG_DECLINES_LATER })).toBeTruthy();
    const create = fetchMock.mock.calls.find(([url]) => url === "/api/paypal/create-order");
    expect(JSON.parse(create[1].body)).toMatchObject({
      tariff_id: 4,
      quantity: 1,
      reduced_status: "student",
      reduced_confirmed: true,
      reduced_proof_id: 9,
      accept_terms: true,
      immediate_start: false,
    });
  });

  it("asks the card or SEPA mandate of the next periods before the first payment", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation((url) => {
      if (String(url).startsWith("/api/subscriptions/offers/4")) return answer(200, { ...OFFER, reduced: false });
      if (String(url).startsWith("/api/subscriptions/method/simulator/card")) return answer(201, CARD);
      if (String(url).startsWith("/api/subscriptions/method")) return answer(200, { ...SAVED, method: null });
      return answer(404, { error: "?" });
    });
    render(<TariffOrder user={MEMBER} paymentConfig={CONFIG} />);
    fireEvent.click(screen.getByRole("button", { name: "Commander" }));
    expect(await screen.findByText("Aucun moyen de paiement enregistré pour les prochaines échéances.", {}, WAIT)).toBeTruthy();
    const pay = await screen.findByRole("button", { name: /^Payer/ });
    expect(pay.disabled).toBe(true);
    fireEvent.click(await screen.findByRole("button", { name: "Enregistrer un moyen de paiement" }, WAIT));
    expect(screen.getByLabelText("Carte bancaire")).toBeTruthy();
    expect(screen.getByLabelText("Prélèvement SEPA")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer la carte" }));
    expect(await screen.findByText("Payé par : Carte •••• 4242, expire 12/28", {}, WAIT)).toBeTruthy();
    await waitFor(() => expect(screen.getByRole("button", { name: /^Payer/ }).disabled).toBe(false), WAIT);
    expect(fetchMock.mock.calls.some(([url]) => url === "/api/subscriptions/method/simulator/card")).toBe(true);
  });

  it("offers PayPal's subscription button when PayPal is configured", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(() => answer(200, { ...OFFER, reduced: false }));
    render(<TariffOrder user={MEMBER} paymentConfig={{ provider: "paypal", clientId: "abc", currency: "EUR" }} />);
    fireEvent.click(screen.getByRole("button", { name: "Commander" }));
    expect(await screen.findByRole("button", { name: "S'abonner avec PayPal" })).toBeTruthy();
    expect(screen.queryByText(/Payer 44/)).toBeNull();
  });

  it("asks for the terms of sale before PayPal's subscription button, and sends them", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation((url) =>
      String(url) === "/api/subscriptions/paypal" ? answer(201, { id: "I-1", status: "CREATED", amount: "44.00", currency: "EUR" }) : answer(200, { ...OFFER, reduced: false }),
    );
    render(<TariffOrder user={MEMBER} paymentConfig={{ provider: "paypal", clientId: "abc", currency: "EUR" }} />);
    fireEvent.click(screen.getByRole("button", { name: "Commander" }));
    fireEvent.click(await screen.findByRole("button", { name: "S'abonner avec PayPal" }));
    expect(screen.getByRole("alert").textContent).toBe("Veuillez accepter les conditions générales de vente.");
    const terms = screen.getByLabelText(/J'accepte les/);
    expect(document.activeElement).toBe(terms);
    expect(screen.queryByRole("button", { name: "Bouton PayPal" })).toBeNull();
    fireEvent.click(terms);
    fireEvent.click(screen.getByLabelText(/commence avant la fin du délai de rétractation/));
    fireEvent.click(screen.getByRole("button", { name: "S'abonner avec PayPal" }));
    fireEvent.click(await screen.findByRole("button", { name: "Bouton PayPal" }, WAIT));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === "/api/subscriptions/paypal")).toBe(true), WAIT);
    const [, init] = fetchMock.mock.calls.find(([url]) => url === "/api/subscriptions/paypal");
    expect(JSON.parse(init.body)).toMatchObject({ tariff_id: 4, accept_terms: true, immediate_start: true });
  });
});
