import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import PartyIsland, { COMPANY_LABELS } from "./PartyIsland.jsx";
import { MSG_SUCCESS } from "./messages.js";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("EVJF/EVG: a company to invoice", () => {
  it("sends the company only when one is given", async () => {
    const bodies = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (url, options) => {
      if (options?.method === "POST") bodies.push(JSON.parse(options.body));
      return new Response(JSON.stringify({ message: "ok" }), { status: 201 });
    });
    render(<PartyIsland user={{ id: 3, email: "emma@example.fr" }} />);
    fireEvent.click(screen.getByRole("button", { name: "Réserver votre EVJF / EVG" }));
    fireEvent.change(screen.getByLabelText("Date *"), { target: { value: "2031-06-14" } });
    fireEvent.change(screen.getByLabelText("Heure *"), { target: { value: "15:00" } });
    expect(screen.getByText("Facture au nom d'une société (facultatif)")).toBeTruthy();
    fireEvent.change(screen.getByLabelText(COMPANY_LABELS.company_name), { target: { value: " CSE Lumière " } });
    fireEvent.change(screen.getByLabelText(COMPANY_LABELS.company_siren), { target: { value: "732 829 320" } });
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la demande" }));
    expect((await screen.findByRole("status")).textContent).toBe(MSG_SUCCESS);
    expect(bodies[0]).toMatchObject({ company_name: "CSE Lumière", company_siren: "732 829 320" });
    expect("company_vat_number" in bodies[0]).toBe(false);
  });
});
