import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import GiftCards, { MSG_ADJUST_AMOUNT, MSG_ADJUST_REASON, MSG_GIFT_CARDS_NONE, validAdjustment } from "./GiftCards.jsx";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function reply(status, body) {
  return Promise.resolve({ ok: status < 400, status, text: () => Promise.resolve(JSON.stringify(body)) });
}

const CARD = {
  id: 7,
  code: "CADEAU-ABCD-EFGH",
  kind: "amount",
  tariff_title: "",
  initial_amount: "50.00",
  balance: "50.00",
  status: "active",
  expires_on: "2027-12-01",
  expired: false,
  recipient_name: "Léa Martin",
  recipient_email: "lea@example.fr",
  buyer_name: "Emma Petit",
  buyer_email: "emma@example.fr",
  send_on: "2026-12-04",
  sent_at: null,
  bought_by_me: false,
  purchased_at: "2026-12-01T10:00:00Z",
  movements: [],
};

describe("Cartes cadeaux (dashboard)", () => {
  it("lists the cards in French and adjusts one with a reason", async () => {
    const calls = [];
    global.fetch = vi.fn((url, init = {}) => {
      calls.push({ url, method: init.method || "GET", body: init.body ? JSON.parse(init.body) : null });
      if (url.endsWith("/adjust")) return reply(200, { ...CARD, balance: "40.00" });
      return reply(200, [calls.some((c) => c.method === "POST") ? { ...CARD, balance: "40.00" } : CARD]);
    });
    render(<GiftCards />);
    const row = (await screen.findByText("CADEAU-ABCD-EFGH")).closest("tr");
    expect(within(row).getByText("01/12/2027")).toBeTruthy();
    expect(within(row).getByText("Active")).toBeTruthy();
    fireEvent.click(within(row).getByRole("button", { name: /Ajuster/ }));
    const save = screen.getByRole("button", { name: "Enregistrer l'ajustement" });
    fireEvent.change(screen.getByLabelText(/Montant ajouté/), { target: { value: "0" } });
    fireEvent.click(save);
    expect(screen.getByRole("alert").textContent).toBe(MSG_ADJUST_AMOUNT);
    fireEvent.change(screen.getByLabelText(/Montant ajouté/), { target: { value: "-10,00" } });
    fireEvent.click(save);
    expect(screen.getByRole("alert").textContent).toBe(MSG_ADJUST_REASON);
    fireEvent.change(screen.getByLabelText(/Motif/), { target: { value: "Cours offert en trop" } });
    fireEvent.click(save);
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("Solde ajusté : 40,00\u00a0€."));
    expect(calls.find((c) => c.method === "POST")).toEqual({
      url: "/api/gift-cards/7/adjust",
      method: "POST",
      body: { amount: "-10.00", reason: "Cours offert en trop" },
    });
  });

  it("says when none was sold", async () => {
    global.fetch = vi.fn(() => reply(200, []));
    render(<GiftCards />);
    expect(await screen.findByText(MSG_GIFT_CARDS_NONE)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Exporter en CSV" }).getAttribute("href")).toBe("/api/gift-cards/export.csv");
  });

  it("takes an amount in euros, never zero", () => {
    expect(["10", "-5,50", "12.34"].map(validAdjustment)).toEqual([true, true, true]);
    expect(["0", "0.00", "abc", "", "1.234"].map(validAdjustment)).toEqual([false, false, false, false, false]);
  });
});
