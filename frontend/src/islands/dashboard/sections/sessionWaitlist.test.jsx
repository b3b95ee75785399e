import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AUTO_BOOK_NO, AUTO_BOOK_YES, MSG_WAITLIST_EMPTY, WaitlistButton, entryStatusText, waitlistButtonLabel } from "./SessionWaitlist.jsx";
import { sessionsConfig } from "./Sessions.jsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const answer = (status, body) => vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } })));
const SESSION = { id: 12, course_title: "Pole Dance", date: "2030-01-14T18:30:00+01:00", status: "scheduled", waitlist_count: 3 };
const ENTRIES = [
  { id: 1, status: "offered", status_label: "Place proposée", position: null, first_name: "Emma", last_name: "Petit", email: "emma@example.fr", participants: 1, auto_book: false, offer_expires_at: "2030-01-14T16:30:00+01:00", joined_at: "2030-01-10T09:00:00+01:00" },
  { id: 2, status: "waiting", status_label: "En liste d'attente", position: 1, first_name: "Zoé", last_name: "Martin", email: "zoe@example.fr", participants: 2, auto_book: true, offer_expires_at: null, joined_at: "2030-01-10T10:00:00+01:00" },
  { id: 3, status: "waiting", status_label: "En liste d'attente", position: 2, first_name: "Léa", last_name: "Durand", email: "lea@example.fr", participants: 1, auto_book: false, offer_expires_at: null, joined_at: "2030-01-11T10:00:00+01:00" },
];

describe("dashboard: a session's waiting list", () => {
  it("is offered on every row of the sessions list with its length", () => {
    expect(waitlistButtonLabel(3)).toBe("Liste d'attente (3)");
    expect(waitlistButtonLabel(undefined)).toBe("Liste d'attente (0)");
    render(<>{sessionsConfig.rowActions(SESSION, { reload: () => {} })}</>);
    expect(screen.getByRole("button", { name: /^Liste d'attente \(3\)/ })).toBeTruthy();
  });

  it("opens a dialog listing position, member, participants, automatic booking and the offer's expiry", async () => {
    const fetchMock = answer(200, { session_id: 12, results: ENTRIES });
    vi.stubGlobal("fetch", fetchMock);
    render(<WaitlistButton session={SESSION} />);
    fireEvent.click(screen.getByRole("button", { name: /Liste d'attente \(3\)/ }));
    const dialog = screen.getByRole("dialog", { hidden: true });
    expect(within(dialog).getByRole("heading").textContent).toBe("Liste d'attente : Pole Dance – 14/01/2030 18:30");
    await waitFor(() => expect(within(dialog).getByText("Place proposée, valable jusqu'au 14/01/2030 16:30")).toBeTruthy());
    expect(fetchMock.mock.calls[0][0]).toBe("/api/course-sessions/12/waitlist");
    const items = within(dialog).getAllByRole("listitem");
    expect(items.map((li) => li.querySelector("strong").textContent)).toEqual([
      "Place proposée, valable jusqu'au 14/01/2030 16:30",
      "1re place dans la file",
      "2e place dans la file",
    ]);
    expect(items[1].textContent).toContain("Zoé Martin");
    expect(items[1].textContent).toContain("2 participant(s)");
    expect(items[1].textContent).toContain(AUTO_BOOK_YES);
    expect(items[2].textContent).toContain(AUTO_BOOK_NO);
    expect(AUTO_BOOK_YES).toBe("Réservation automatique avec sa carte ou son abonnement");
    expect(AUTO_BOOK_NO).toBe("Pas de réservation automatique : un lien de paiement lui est envoyé");
    expect(within(items[0]).getByRole("link", { name: "emma@example.fr" }).getAttribute("href")).toBe("mailto:emma@example.fr");
  });

  it("says when nobody waits, and shows a load failure in French", async () => {
    vi.stubGlobal("fetch", answer(200, { session_id: 12, results: [] }));
    render(<WaitlistButton session={{ ...SESSION, waitlist_count: 0 }} />);
    fireEvent.click(screen.getByRole("button", { name: /Liste d'attente \(0\)/ }));
    await waitFor(() => expect(screen.getByText(MSG_WAITLIST_EMPTY)).toBeTruthy());
    expect(MSG_WAITLIST_EMPTY).toBe("Personne n'attend de place pour ce cours.");
    cleanup();
    vi.stubGlobal("fetch", answer(404, { error: "Cette session n'existe pas." }));
    render(<WaitlistButton session={SESSION} />);
    fireEvent.click(screen.getByRole("button", { name: /Liste d'attente/ }));
    await waitFor(() => expect(screen.getByRole("alert", { hidden: true }).textContent).toBe("Cette session n'existe pas."));
  });

  it("words each status", () => {
    expect(entryStatusText({ status: "waiting", position: 1 })).toBe("1re place dans la file");
    expect(entryStatusText({ status: "waiting", position: 4 })).toBe("4e place dans la file");
    expect(entryStatusText({ status: "offered", offer_expires_at: null })).toBe("Place proposée");
  });
});
