import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { euros } from "../../components/format.js";
import PartyIsland from "./PartyIsland.jsx";
import { MSG_FOLLOW, MSG_REQUIRED, MSG_SUCCESS } from "./messages.js";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("EVJF/EVG form (issue 24)", () => {
  it("marks the missing fields, focuses the first, then keeps the success message in view", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(JSON.stringify({ message: "ok" }), { status: 201 }));
    render(<PartyIsland user={{ id: 3, email: "emma@example.fr" }} />);
    fireEvent.click(screen.getByRole("button", { name: "Réserver votre EVJF / EVG" }));
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la demande" }));
    expect(screen.getByRole("alert").textContent).toBe(MSG_REQUIRED);
    const date = screen.getByLabelText("Date *");
    expect(date.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByLabelText("Heure *").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByLabelText("Email *").hasAttribute("aria-invalid")).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(date));

    fireEvent.change(date, { target: { value: "2031-06-14" } });
    fireEvent.change(screen.getByLabelText("Heure *"), { target: { value: "15:00" } });
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la demande" }));
    const success = await screen.findByRole("status");
    expect(success.textContent).toBe(MSG_SUCCESS);
    await waitFor(() => expect(document.activeElement).toBe(success));
    // Issue 23: the member is told where to follow the request.
    expect(screen.getByText(MSG_FOLLOW, { exact: false })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Mes demandes" }).getAttribute("href")).toBe("/user/requests");
    expect(MSG_FOLLOW).toBe("Le studio vous envoie un devis : suivez votre demande dans");
  });
});

describe("EVJF/EVG prices (issue 17)", () => {
  it("writes its prices through the shared French formatter", () => {
    render(<PartyIsland user={{ id: 3, email: "emma@example.fr" }} />);
    fireEvent.click(screen.getByRole("button", { name: "Réserver votre EVJF / EVG" }));
    const help = screen.getByText(/par participant/).textContent;
    expect(help).toBe(`${euros("25.00")} par participant, gratuit pour la future mariée ou le futur marié, ${euros("5.00")} par spectateur.`);
    expect(help.replace(/[\u00a0\u202f]/g, " ")).toContain("25,00 € par participant");
  });
});
