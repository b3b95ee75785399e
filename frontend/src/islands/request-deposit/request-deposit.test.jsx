import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { MSG_DEPOSIT_SUCCESS } from "../../components/payment/messages.js";
import RequestDeposit, { MSG_DEPOSIT_INTRO, MSG_REFRESH } from "./RequestDeposit.jsx";

vi.mock("../../components/toast.jsx", () => ({ notify: vi.fn() }));

beforeAll(async () => {
  // The simulator's pane is a lazy chunk, compiled on first import, which takes as long as the machine is busy:
  // compile it before the clock of the assertions starts.
  await import("../../components/payment/SimulatorPane.jsx");
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function reply(status, body) {
  return Promise.resolve({ ok: status < 400, status, text: () => Promise.resolve(JSON.stringify(body)) });
}

describe("RequestDeposit", () => {
  it("opens the deposit order of the request, approves it in the simulator and says it is paid", async () => {
    const calls = [];
    global.fetch = vi.fn((url, init) => {
      calls.push({ url, body: JSON.parse(init.body || "{}") });
      if (url === "/api/paypal/deposit-order") return reply(201, { id: "SIM-7", status: "CREATED", amount: "50.00", currency: "EUR" });
      if (url === "/api/paypal/simulator/approve") return reply(200, { id: "SIM-7", status: "APPROVED" });
      return reply(200, { id: "SIM-7", status: "COMPLETED", amount: "50.00", currency: "EUR", title: "Acompte" });
    });
    const onPaid = vi.fn();
    render(
      <RequestDeposit
        kind="party"
        requestId={4}
        amount="50.00"
        title="Acompte EVJF"
        payer={{ first_name: "Emma", last_name: "Petit", email: "emma@example.fr" }}
        paymentConfig={{ provider: "simulator", clientId: "", currency: "EUR" }}
        onPaid={onPaid}
      />,
    );
    expect(screen.getByText(MSG_DEPOSIT_INTRO, { exact: false })).toBeTruthy();
    fireEvent.click(screen.getByRole("checkbox", { name: /J'accepte les conditions générales de vente/ }));
    fireEvent.click(screen.getByRole("button", { name: "Payer 50,00\u00a0€" }));
    fireEvent.click(await screen.findByRole("button", { name: "Payer (simulation)" }));
    await waitFor(() => expect(onPaid).toHaveBeenCalled());
    expect(calls[0]).toEqual({ url: "/api/paypal/deposit-order", body: { kind: "party", request_id: 4, amount: "50.00", accept_terms: true } });
    expect(calls.map((c) => c.url)).toEqual(["/api/paypal/deposit-order", "/api/paypal/simulator/approve", "/api/paypal/capture-payment"]);
    expect(screen.getByRole("status").textContent).toBe(MSG_DEPOSIT_SUCCESS);
    expect(screen.getByRole("link", { name: MSG_REFRESH })).toBeTruthy();
    expect(MSG_DEPOSIT_SUCCESS).toBe("Acompte payé ! Un email de confirmation avec votre reçu vous a été envoyé.");
  });
});
