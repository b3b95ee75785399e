/* /my-courses shows the waiting lists I am on: position, an offer to pay, leaving. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";

import MyWaitlist, { MSG_WAITLIST_MINE_ERROR } from "./MyWaitlist.jsx";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const waiting = { id: 1, session_id: 9, title: "Exotic Pole", date: "2031-03-10T18:30:00+01:00", status: "waiting", position: 2, offer_expires_at: null };
const offered = { id: 2, session_id: 10, title: "Pole Flow", date: "2031-03-12T19:00:00+01:00", status: "offered", position: null, offer_expires_at: "2031-03-11T12:00:00+01:00" };

describe("my waiting lists", () => {
  it("shows the position and the offer with its link, and leaves a list", async () => {
    let list = [waiting, offered];
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async (url, init = {}) => {
      if ((init.method || "GET") === "DELETE") {
        list = [offered];
        return new Response(JSON.stringify({ message: "Vous avez quitté la liste d'attente." }), { status: 200 });
      }
      return new Response(JSON.stringify(list), { status: 200 });
    });
    render(<MyWaitlist />);
    expect(await screen.findByText("Mes listes d'attente")).toBeTruthy();
    expect(screen.getByText(/Position 2/)).toBeTruthy();
    const link = screen.getByRole("link", { name: /Place proposée jusqu'à 12:00/ });
    expect(link.getAttribute("href")).toBe("/courses/calendar?date=2031-03-12&session=10");
    fireEvent.click(screen.getAllByText("Quitter la liste d'attente")[0]);
    await vi.waitFor(() => expect(screen.queryByText(/Position 2/)).toBeNull());
    expect(fetchMock.mock.calls.some(([url, init]) => url === "/api/course-sessions/9/waitlist" && init.method === "DELETE")).toBe(true);
  });

  it("says so in French when the lists cannot be loaded, and shows nothing when there are none", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("{}", { status: 500 }));
    render(<MyWaitlist />);
    expect((await screen.findByRole("alert")).textContent).toBe(MSG_WAITLIST_MINE_ERROR);
    cleanup();
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("[]", { status: 200 }));
    const { container } = render(<MyWaitlist />);
    await vi.waitFor(() => expect(container.innerHTML).toBe(""));
  });
});
