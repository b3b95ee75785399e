import { describe, expect, it } from "vitest";
import { LABEL_CANCELLED, MSG_CANCELLED, clickOutcome } from "./messages.js";

describe("calendar: a class the studio cancelled", () => {
  const session = { id: 7, date: "2031-03-10T18:30:00+01:00", seats_left: 4, status: "cancelled", my_reservation: null };
  const now = new Date("2031-03-01T00:00:00Z");

  it("opens the cancellation notice for everyone, never the booking form", () => {
    expect(clickOutcome({ user: { id: 1 }, session, now })).toBe("cancelled");
    expect(clickOutcome({ user: null, session, now })).toBe("cancelled");
    expect(clickOutcome({ user: { id: 1 }, session: { ...session, status: "scheduled" }, now })).toBe("reserve");
  });

  it("says so in French", () => {
    expect(LABEL_CANCELLED).toBe("Annulé");
    expect(MSG_CANCELLED).toBe("Ce cours est annulé par le studio : il ne peut plus être réservé.");
  });
});
