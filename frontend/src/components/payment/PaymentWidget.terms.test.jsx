import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

vi.mock("../toast.jsx", () => ({ notify: vi.fn() }));

import PaymentWidget from "../PaymentWidget.jsx";
import * as M from "./messages.js";

function reply(status, body) {
  return Promise.resolve({ ok: status < 400, status, text: () => Promise.resolve(JSON.stringify(body)) });
}

let calls;
function serve() {
  calls = [];
  global.fetch = vi.fn((url, init) => {
    calls.push({ url, body: init.body ? JSON.parse(init.body) : null });
    return reply(201, { id: "SIM-1", provider: "simulator" });
  });
}

const props = (order) => ({
  order,
  context: order.kind === "deposit" ? "deposit" : "tariff",
  config: { provider: "simulator", clientId: "", currency: "EUR" },
  payer: { first_name: "Emma", last_name: "Petit", email: "emma@example.fr" },
  details: { title: "Carte 10 cours", type: "FORFAIT" },
  totalAmount: "190.00",
});
const PAY = { name: "Payer 190,00\u00a0€" };

afterEach(cleanup);

describe("the terms of sale in the payment widget", () => {
  it("keeps the exact wording", () => {
    expect(M.MSG_TERMS_REQUIRED).toBe("Veuillez accepter les conditions générales de vente.");
    expect(M.MSG_NO_WITHDRAWAL).toBe("Pas de droit de rétractation pour une séance à date fixe.");
    expect(M.MSG_IMMEDIATE_START).toBe(
      "Je demande que ma carte ou mon abonnement commence avant la fin du délai de rétractation de 14 jours, et je " +
        "reconnais que les séances suivies resteront dues si je me rétracte.",
    );
    expect(M.MSG_WITHDRAWAL_RIGHT).toBe(
      "Vous disposez de 14 jours pour vous rétracter : « Exercer mon droit de rétractation » sur votre profil.",
    );
  });

  it("refuses a card without the terms ticked, then sends them with the immediate start", async () => {
    serve();
    render(<PaymentWidget {...props({ kind: "tariff", tariffId: 3, quantity: 1 })} />);
    const terms = screen.getByRole("checkbox", { name: /J'accepte les conditions générales de vente/ });
    expect(terms.required).toBe(true);
    expect(screen.getByRole("link", { name: /conditions générales de vente/ }).getAttribute("href")).toBe("/cgv");
    fireEvent.click(screen.getByRole("button", PAY));
    expect(screen.getByRole("alert").textContent).toBe(M.MSG_TERMS_REQUIRED);
    expect(document.activeElement).toBe(terms);
    expect(calls).toEqual([]);
    fireEvent.click(terms);
    fireEvent.click(screen.getByRole("checkbox", { name: M.MSG_IMMEDIATE_START }));
    fireEvent.click(screen.getByRole("button", PAY));
    await waitFor(() => expect(calls.length).toBe(1));
    expect(calls[0].url).toBe("/api/paypal/create-order");
    expect(calls[0].body).toMatchObject({ tariff_id: 3, accept_terms: true, immediate_start: true });
  });

  it("a deposit asks for the terms but offers no immediate start", async () => {
    serve();
    render(<PaymentWidget {...props({ kind: "deposit", requestKind: "party", requestId: 5 })} />);
    expect(screen.queryByRole("checkbox", { name: M.MSG_IMMEDIATE_START })).toBeNull();
    fireEvent.click(screen.getByRole("checkbox", { name: /J'accepte les conditions générales de vente/ }));
    fireEvent.click(screen.getByRole("button", PAY));
    await waitFor(() => expect(calls.length).toBe(1));
    expect(calls[0].body).toEqual({ kind: "party", request_id: 5, amount: "190.00", accept_terms: true });
  });

  it("a dated class says it has no withdrawal right and asks nothing", () => {
    serve();
    render(<PaymentWidget {...props({ kind: "reservation", reservationId: 7 })} />);
    expect(screen.getByText(M.MSG_NO_WITHDRAWAL)).toBeTruthy();
    expect(screen.queryByRole("checkbox")).toBeNull();
  });
});
