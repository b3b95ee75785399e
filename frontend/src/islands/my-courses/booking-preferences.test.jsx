/* /my-courses: reminder switches, the calendar link and its renewal, "Ajouter à mon agenda". */
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";

import BookingPreferences, { LABEL_CREATE_LINK, LABEL_REGENERATE, LABEL_REMIND_DAY_BEFORE } from "./BookingPreferences.jsx";
import { googleCalendarUrl, icsUrl } from "./addToCalendar.js";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("reminders and calendar link", () => {
  it("switches a reminder off and creates then renews the secret link", async () => {
    let state = { remind_day_before: true, remind_cancellation_deadline: true, calendar_url: null };
    const calls = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (url, init = {}) => {
      const method = init.method || "GET";
      calls.push({ url: String(url), method, body: init.body && JSON.parse(init.body) });
      if (method === "PATCH") state = { ...state, ...JSON.parse(init.body), message: "Vos préférences de rappel sont enregistrées." };
      if (method === "POST") state = { ...state, calendar_url: `http://x/calendar/t${calls.length}.ics`, message: "Nouveau lien créé : l'ancien ne fonctionne plus." };
      return new Response(JSON.stringify(state), { status: 200 });
    });
    render(<BookingPreferences />);
    const box = await screen.findByLabelText(LABEL_REMIND_DAY_BEFORE);
    expect(box.checked).toBe(true);
    fireEvent.click(box);
    expect(await screen.findByText("Vos préférences de rappel sont enregistrées.")).toBeTruthy();
    expect(screen.getByLabelText(LABEL_REMIND_DAY_BEFORE).checked).toBe(false);
    expect(calls.find((c) => c.method === "PATCH").body).toEqual({ remind_day_before: false });
    fireEvent.click(screen.getByText(LABEL_CREATE_LINK));
    const link = await screen.findByLabelText("Lien de mon calendrier");
    const first = link.value;
    fireEvent.click(screen.getByText(LABEL_REGENERATE));
    await vi.waitFor(() => expect(screen.getByLabelText("Lien de mon calendrier").value).not.toBe(first));
    expect(screen.getByText("Nouveau lien créé : l'ancien ne fonctionne plus.")).toBeTruthy();
  });

  it("builds the Google link in UTC and the .ics link of the booking", () => {
    const row = { reservation_id: 12, title: "Pole Flow", date: "2031-03-10T18:30:00+01:00", end_date: "2031-03-10T19:45:00+01:00", instructor: "Léa" };
    const url = new URL(googleCalendarUrl(row, "Studio, Lyon"));
    expect(url.hostname).toBe("calendar.google.com");
    expect(url.searchParams.get("dates")).toBe("20310310T173000Z/20310310T184500Z");
    expect(url.searchParams.get("text")).toBe("Pole Flow");
    expect(url.searchParams.get("location")).toBe("Studio, Lyon");
    expect(icsUrl(row)).toBe("/my-courses/12.ics");
  });
});
