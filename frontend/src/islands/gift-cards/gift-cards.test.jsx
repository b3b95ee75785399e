import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { MSG_GIFT_CARD_SUCCESS } from "../../components/payment/messages.js";
import GiftCards from "./GiftCards.jsx";
import * as M from "./messages.js";

vi.mock("../../components/toast.jsx", () => ({ notify: vi.fn() }));

beforeAll(async () => {
  await import("../../components/payment/SimulatorPane.jsx");
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function reply(status, body) {
  return Promise.resolve({ ok: status < 400, status, text: () => Promise.resolve(JSON.stringify(body)) });
}

const PROPS = {
  user: { first_name: "Emma", last_name: "Petit", email: "emma@example.fr" },
  paymentConfig: { provider: "simulator", clientId: "", currency: "EUR" },
  loginUrl: "/login?next=/cartes-cadeaux",
  minAmount: "20.00",
  maxAmount: "500.00",
  tariffs: [{ id: 3, title: "Carte 10 cours", price: "180.00" }],
  today: "2026-12-01",
  lastSendDay: "2027-12-02",
};

describe("GiftCards", () => {
  it("buys a card for in 3 days through the simulator and sends what the member chose", async () => {
    const calls = [];
    global.fetch = vi.fn((url, init = {}) => {
      calls.push({ url, body: init.body ? JSON.parse(init.body) : null });
      if (url === "/api/gift-cards" && init.method === "POST") return reply(201, { id: "SIM-1", status: "CREATED", amount: "80.00", currency: "EUR", provider: "simulator" });
      if (url === "/api/gift-cards") return reply(200, []);
      if (url === "/api/paypal/simulator/approve") return reply(200, { id: "SIM-1", status: "APPROVED" });
      return reply(200, { id: "SIM-1", status: "COMPLETED", amount: "80.00", currency: "EUR", title: "Carte cadeau" });
    });
    render(<GiftCards {...PROPS} />);
    fireEvent.click(screen.getByRole("button", { name: "80,00\u00a0€" }));
    fireEvent.change(screen.getByLabelText(M.MSG_RECIPIENT_NAME), { target: { value: "Léa Martin" } });
    fireEvent.change(screen.getByLabelText(M.MSG_RECIPIENT_EMAIL), { target: { value: "lea@example.fr" } });
    fireEvent.change(screen.getByLabelText(M.MSG_MESSAGE), { target: { value: "Bon anniversaire" } });
    fireEvent.click(screen.getByLabelText(M.MSG_IN_3_DAYS));
    fireEvent.click(await screen.findByRole("checkbox", { name: /J'accepte les conditions générales de vente/ }));
    fireEvent.click(screen.getByRole("button", { name: "Payer 80,00\u00a0€" }));
    fireEvent.click(await screen.findByRole("button", { name: "Payer (simulation)" }));
    await waitFor(() => expect(screen.getAllByText(MSG_GIFT_CARD_SUCCESS).length).toBeGreaterThan(0));
    const created = calls.find((c) => c.url === "/api/gift-cards" && c.body);
    expect(created.body).toEqual({
      amount: "80.00",
      recipient_name: "Léa Martin",
      recipient_email: "lea@example.fr",
      message: "Bon anniversaire",
      send: "in_3_days",
      accept_terms: true,
    });
  });

  it("refuses an amount outside 20–500 € before anything is sent", async () => {
    global.fetch = vi.fn(() => reply(200, []));
    render(<GiftCards {...PROPS} />);
    fireEvent.change(screen.getByLabelText(M.MSG_AMOUNT_LABEL), { target: { value: "600" } });
    expect(screen.getByText(M.MSG_AMOUNT_RANGE)).toBeTruthy();
    expect((await screen.findByRole("button", { name: /^Payer/ })).disabled).toBe(true);
  });

  it("asks a visitor to log in to buy, and checks a balance by code", async () => {
    global.fetch = vi.fn(() => reply(200, { code: "CADEAU-ABCD-EFGH", balance: "42.50", status: "active", expires_on: "2027-12-01", expired: false }));
    render(<GiftCards {...PROPS} user={null} />);
    expect(screen.getByRole("link", { name: M.MSG_LOGIN_TO_BUY }).getAttribute("href")).toBe("/login?next=/cartes-cadeaux");
    fireEvent.change(screen.getByLabelText(M.MSG_CODE_LABEL), { target: { value: "cadeau-abcd-efgh" } });
    fireEvent.click(screen.getByRole("button", { name: M.MSG_CHECK_BUTTON }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("CADEAU-ABCD-EFGH – Solde : 42,50\u00a0€. Valable jusqu'au 01/12/2027."));
  });
});
