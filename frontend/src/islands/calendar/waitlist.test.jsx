/* The waiting list in the "Session complète" popup: participants, automatic booking with a pass, the
   position after joining, leaving. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";

import WaitlistPanel, { LABEL_AUTO_BOOK, LABEL_WAITLIST_PARTICIPANTS, MSG_WAITLIST_INTRO, participantsLabel, positionLabel } from "./WaitlistPanel.jsx";
import { clickOutcome } from "./messages.js";
import { dateFromLink } from "./CalendarIsland.jsx";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const session = { id: 9, date: "2031-03-10T18:30:00+01:00", seats_left: 0, max_attendees: 8 };
const card = { id: 5, kind: "card", state: "active", title: "Carte 10 cours", credits_left: 3, expires_on: "2031-06-01" };

function serve(routes) {
  const calls = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (url, init = {}) => {
    const method = init.method || "GET";
    calls.push({ url: String(url), method, body: init.body ? JSON.parse(init.body) : undefined });
    const answer = routes(String(url), method, calls);
    return new Response(JSON.stringify(answer.body), { status: answer.status || 200 });
  });
  return calls;
}

describe("the waiting list popup", () => {
  it("says how many take part and what a position or an offer means", () => {
    expect(participantsLabel(session)).toBe("8 participants inscrits");
    expect(participantsLabel({ max_attendees: 3, seats_left: 2 })).toBe("1 participant inscrit");
    expect(positionLabel({ status: "waiting", position: 2 })).toBe("Vous êtes en position 2 sur la liste d'attente.");
    expect(positionLabel({ status: "offered" })).toBe("Une place vous est proposée : payez-la avant l'heure indiquée dans l'e-mail.");
  });

  it("opens the calendar on the day an offer e-mail links to", () => {
    expect(dateFromLink("?date=2031-03-10&session=9")).toBe("2031-03-10");
    expect(dateFromLink("?date=demain")).toBeUndefined();
    expect(dateFromLink("")).toBeUndefined();
  });

  it("opens the reservation popup for my own hold on a full session (an offer to pay)", () => {
    const user = { id: 1 };
    const now = new Date("2031-03-01T10:00:00+01:00");
    expect(clickOutcome({ user, session: { ...session, my_reservation: { status: "held" } }, now })).toBe("reserve");
  });

  it("joins with automatic booking on a card and shows the position, then leaves", async () => {
    let inLine = false;
    const calls = serve((url, method) => {
      if (url.includes("/api/passes/mine")) return { body: [card] };
      if (url.includes("/api/waitlist/mine")) return { body: inLine ? [{ session_id: 9, status: "waiting", position: 3 }] : [] };
      if (method === "POST") {
        inLine = true;
        return { status: 201, body: { position: 3, message: "" } };
      }
      inLine = false;
      return { body: { message: "Vous avez quitté la liste d'attente." } };
    });
    render(<WaitlistPanel session={session} onClose={() => {}} />);
    expect(await screen.findByText(MSG_WAITLIST_INTRO)).toBeTruthy();
    expect(screen.getByText("8 participants inscrits sur 8 places.")).toBeTruthy();
    fireEvent.click(await screen.findByLabelText(LABEL_AUTO_BOOK));
    fireEvent.click(screen.getByText("Rejoindre la liste d'attente"));
    expect(await screen.findByText("Vous êtes en position 3 sur la liste d'attente.")).toBeTruthy();
    expect(calls.find((c) => c.method === "POST")).toMatchObject({ url: "/api/course-sessions/9/waitlist", body: { auto_book: true, pass_id: 5 } });
    fireEvent.click(screen.getByText("Quitter la liste d'attente"));
    expect(await screen.findByText(MSG_WAITLIST_INTRO)).toBeTruthy();
  });

  it("joins with the number of participants asked", async () => {
    let inLine = false;
    const calls = serve((url, method) => {
      if (url.includes("/api/passes/mine")) return { body: [] };
      if (url.includes("/api/waitlist/mine")) return { body: inLine ? [{ session_id: 9, status: "waiting", position: 1 }] : [] };
      inLine = true;
      return { status: 201, body: { position: 1, message: "" } };
    });
    render(<WaitlistPanel session={session} onClose={() => {}} />);
    const field = await screen.findByLabelText(LABEL_WAITLIST_PARTICIPANTS);
    expect(LABEL_WAITLIST_PARTICIPANTS).toBe("Nombre de participants");
    expect(field.getAttribute("max")).toBe("8");
    fireEvent.change(field, { target: { value: "2" } });
    fireEvent.click(screen.getByText("Rejoindre la liste d'attente"));
    expect(await screen.findByText("Vous êtes en position 1 sur la liste d'attente.")).toBeTruthy();
    expect(calls.find((c) => c.method === "POST").body).toEqual({ auto_book: false, participants: 2 });
  });

  it("shows the server's French refusal", async () => {
    serve((url, method) => {
      if (url.includes("/api/passes/mine")) return { body: [] };
      if (url.includes("/api/waitlist/mine")) return { body: [] };
      return { status: 409, body: { error: "Il reste des places pour cette session : réservez directement." } };
    });
    render(<WaitlistPanel session={session} onClose={() => {}} />);
    fireEvent.click(await screen.findByText("Rejoindre la liste d'attente"));
    expect((await screen.findByRole("alert")).textContent).toBe("Il reste des places pour cette session : réservez directement.");
    expect(screen.queryByLabelText(LABEL_AUTO_BOOK)).toBeNull();
  });
});
