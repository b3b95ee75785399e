import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { euros } from "../../components/format.js";
import PartyIsland from "./PartyIsland.jsx";
import { LABEL_ESTIMATE, LABEL_GUEST_OF_HONOUR, MSG_ESTIMATE_NOTE, MSG_FOLLOW, MSG_REQUIRED, MSG_SPECTATORS, MSG_SUCCESS } from "./messages.js";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("EVJF/EVG form", () => {
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
    // The member is told where to follow the request.
    expect(screen.getByText(MSG_FOLLOW, { exact: false })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Mes demandes" }).getAttribute("href")).toBe("/user/requests");
    expect(MSG_FOLLOW).toBe("Le studio vous envoie un devis : suivez votre demande dans");
  });
});

describe("EVJF/EVG prices", () => {
  it("writes its prices through the shared French formatter", () => {
    render(<PartyIsland user={{ id: 3, email: "emma@example.fr" }} />);
    fireEvent.click(screen.getByRole("button", { name: "Réserver votre EVJF / EVG" }));
    const help = screen.getByText(/par participant/).textContent;
    expect(help).toBe(`${euros("25.00")} par participant, gratuit pour la future mariée ou le futur marié, ${euros("5.00")} par spectateur.`);
    expect(help.replace(/[\u00a0\u202f]/g, " ")).toContain("25,00 € par participant");
  });
});

describe("EVJF/EVG: the bride or groom, the spectators and the server's estimate", () => {
  const ESTIMATE = "/api/evf-reservations/estimate";

  function serverPricing() {
    // Stands in for the server: answers what it is asked, and records the questions.
    return vi.spyOn(globalThis, "fetch").mockImplementation(async (url, options) => {
      const text = String(url);
      if (text.startsWith(ESTIMATE)) {
        const q = new URL(text, "http://localhost").searchParams;
        const amount = { "8|2|true": "185.00", "8|2|false": "210.00", "1|0|true": "125.00" }[`${q.get("participants")}|${q.get("spectators")}|${q.get("guest_of_honour")}`];
        return new Response(JSON.stringify({ amount }), { status: 200 });
      }
      return new Response(JSON.stringify({ message: "ok", body: options?.body }), { status: 201 });
    });
  }

  it("asks both, shows the server's estimate live and sends them with the request", async () => {
    const fetchMock = serverPricing();
    render(<PartyIsland user={{ id: 3, email: "emma@example.fr" }} />);
    fireEvent.click(screen.getByRole("button", { name: "Réserver votre EVJF / EVG" }));
    const guest = screen.getByLabelText(LABEL_GUEST_OF_HONOUR);
    expect(guest.checked).toBe(true);
    await waitFor(() => expect(document.querySelector("[data-estimate]")?.textContent).toBe(euros("125.00")));
    fireEvent.change(screen.getByLabelText("Participants *"), { target: { value: "8" } });
    fireEvent.change(screen.getByLabelText("Spectateurs"), { target: { value: "2" } });
    await waitFor(() => expect(document.querySelector("[data-estimate]")?.textContent).toBe(euros("185.00")));
    expect(screen.getByText(`${LABEL_ESTIMATE} :`, { exact: false }).textContent).toContain(MSG_ESTIMATE_NOTE);
    fireEvent.click(guest);
    await waitFor(() => expect(document.querySelector("[data-estimate]")?.textContent).toBe(euros("210.00")));

    fireEvent.change(screen.getByLabelText("Date *"), { target: { value: "2031-06-14" } });
    fireEvent.change(screen.getByLabelText("Heure *"), { target: { value: "15:00" } });
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la demande" }));
    await screen.findByText(MSG_SUCCESS);
    const sent = fetchMock.mock.calls.find(([url, options]) => options?.method === "POST");
    expect(sent[0]).toBe("/api/evf-reservations");
    const body = JSON.parse(sent[1].body);
    expect([body.participants, body.spectators, body.guest_of_honour]).toEqual([8, 2, false]);
  });

  it("refuses spectators outside 0 to 100 in French, without sending", async () => {
    const fetchMock = serverPricing();
    render(<PartyIsland user={{ id: 3, email: "emma@example.fr" }} />);
    fireEvent.click(screen.getByRole("button", { name: "Réserver votre EVJF / EVG" }));
    fireEvent.change(screen.getByLabelText("Date *"), { target: { value: "2031-06-14" } });
    fireEvent.change(screen.getByLabelText("Heure *"), { target: { value: "15:00" } });
    fireEvent.change(screen.getByLabelText("Spectateurs"), { target: { value: "101" } });
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la demande" }));
    expect(screen.getByRole("alert").textContent).toBe(MSG_SPECTATORS);
    expect(screen.getByLabelText("Spectateurs").getAttribute("aria-invalid")).toBe("true");
    expect(fetchMock.mock.calls.some(([, options]) => options?.method === "POST")).toBe(false);
    expect(document.querySelector("[data-estimate]")).toBeNull(); // no estimate for numbers the server refuses
  });
});
