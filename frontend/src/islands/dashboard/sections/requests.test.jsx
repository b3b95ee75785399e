import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import Requests, { MSG_CONFIRMED, MSG_QUOTED, listUrl, partyPeople } from "./Requests.jsx";
import { formatMoney } from "../format.js";
import { polyfillDialog } from "../../../testing/dialog.js";

polyfillDialog();

const SENT = {
  id: 4,
  user_id: 2,
  eventType: "EVJF",
  first_name: "Emma",
  last_name: "Petit",
  email: "emma@example.fr",
  date: "2030-06-13",
  time: "15:00",
  participants: 8,
  message: "Pour Julie",
  status: "sent",
  status_label: "Envoyée",
  status_text: "Envoyée",
  quote_amount: null,
  deposit_amount: null,
  quote_note: "",
  quote_participants: null,
  quote_spectators: null,
  deposit_paid_at: null,
  events: [{ kind: "sent", label: "Demande envoyée", at: "2030-05-01T10:00:00+02:00", by: "Membre", by_staff: false, note: "" }],
};
const QUOTED = {
  ...SENT,
  status: "quoted",
  status_label: "Devis envoyé",
  status_text: "Devis envoyé",
  quote_amount: "185.00",
  deposit_amount: "50.00",
  events: [...SENT.events, { kind: "quoted", label: "Devis envoyé", at: "2030-05-02T10:00:00+02:00", by: "Camille Laurent", by_staff: true, note: "Devis de 185,00 €" }],
};

function answer(status, body) {
  return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("Requests (staff)", () => {
  it("lists who comes to a party as the member asked: the bride or groom, the spectators and the price", async () => {
    const row = { ...SENT, participants: 8, spectators: 3, guest_of_honour: false, estimate: "215.00" };
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation((url, init) => {
      if (init?.method === "POST") return answer(200, { ...QUOTED, spectators: 3, guest_of_honour: false });
      return answer(200, { count: 1, next: null, previous: null, results: [row] });
    });
    render(<Requests kind="parties" />);
    const line = await screen.findByText(partyPeople(row));
    expect(line.textContent).toBe("8 participant(s) (sans la future mariée ni le futur marié) · 3 spectateur(s)");
    expect(partyPeople({ participants: 6, spectators: 0, guest_of_honour: true })).toBe("6 participant(s) (future mariée ou futur marié compris, gratuit) · 0 spectateur(s)");
    fireEvent.click(screen.getByRole("button", { name: "Gérer la demande 4" }));
    const dialog = screen.getByRole("dialog");
    expect(within(dialog).getByText("ne prend pas le cours")).toBeTruthy();
    const price = [...dialog.querySelectorAll("dt")].find((dt) => dt.textContent === "Prix de la demande");
    expect(price.nextElementSibling.textContent).toBe(formatMoney("215.00"));
    // The quote starts from the spectators the member asked for.
    expect(within(dialog).getByLabelText("Spectateurs").value).toBe("3");
    fireEvent.change(within(dialog).getByLabelText("Acompte à payer en ligne (€)"), { target: { value: "50.00" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Envoyer le devis" }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === "POST")).toBe(true));
  });

  it("builds the list address with the status filter and page", () => {
    expect(listUrl("parties", "", 1)).toBe("/api/evf-reservations");
    expect(listUrl("parties", "quoted", 2)).toBe("/api/evf-reservations?status=quoted&page=2");
    expect(listUrl("rentals", "", 1)).toBe("/api/rental-requests");
  });

  it("sends a quote for a party and shows the new status", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation((url, init) => {
      if (init?.method === "POST") return answer(200, QUOTED);
      return answer(200, { count: 1, next: null, previous: null, results: [SENT] });
    });
    render(<Requests kind="parties" />);
    fireEvent.click(await screen.findByRole("button", { name: "Gérer la demande 4" }));
    const dialog = screen.getByRole("dialog");
    expect(within(dialog).getByText(/Demande envoyée/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText("Spectateurs"), { target: { value: "2" } });
    fireEvent.change(within(dialog).getByLabelText("Acompte à payer en ligne (€)"), { target: { value: "50.00" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Envoyer le devis" }));
    await waitFor(() => expect(within(dialog).getByRole("status").textContent).toBe(MSG_QUOTED));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(post[0]).toBe("/api/evf-reservations/4/quote");
    expect(JSON.parse(post[1].body)).toEqual({ participants: 8, spectators: 2, deposit: "50.00", note: "" });
    expect(within(dialog).getAllByText(/Devis envoyé/).length).toBeGreaterThan(0);
  });

  it("confirms once the deposit is paid, and shows the server's refusal otherwise", async () => {
    const paid = { ...QUOTED, deposit_paid_at: "2030-05-03T10:00:00+02:00", status_text: "Devis envoyé – acompte payé, confirmation à venir" };
    let refuse = true;
    vi.spyOn(globalThis, "fetch").mockImplementation((url, init) => {
      if (init?.method === "POST") {
        if (refuse) return answer(409, { error: "Seule une demande dont l'acompte est payé peut être confirmée." });
        return answer(200, { ...paid, status: "confirmed", status_text: "Confirmée" });
      }
      return answer(200, { count: 1, next: null, previous: null, results: [paid] });
    });
    render(<Requests kind="parties" />);
    fireEvent.click(await screen.findByRole("button", { name: "Gérer la demande 4" }));
    const dialog = screen.getByRole("dialog");
    expect(within(dialog).queryByRole("button", { name: "Envoyer le devis" })).toBeNull();
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirmer la demande" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Seule une demande dont l'acompte est payé peut être confirmée.");
    refuse = false;
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirmer la demande" }));
    await waitFor(() => expect(within(dialog).getByRole("status").textContent).toBe(MSG_CONFIRMED));
  });
});
