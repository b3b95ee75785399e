/* The no-shows on each member's record (docs/decisions.md 38), in the staff's users list. */
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import ResourceSection from "../ResourceSection.jsx";
import { noShowsLabel, usersConfig } from "./Users.jsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const user = (id, no_shows) => ({ id, role: "user", first_name: `P${id}`, last_name: `N${id}`, email: `u${id}@example.fr`, phone: "", can_edit: true, no_shows });

describe("users list: no-shows", () => {
  it("words the count", () => {
    expect(noShowsLabel({ no_shows: 0 })).toBe("Aucune");
    expect(noShowsLabel({})).toBe("Aucune");
    expect(noShowsLabel({ no_shows: 1 })).toBe("1 absence");
    expect(noShowsLabel({ no_shows: 3 })).toBe("3 absences");
  });

  it("shows an 'Absences' column in the list", async () => {
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(new Response(JSON.stringify({ count: 2, next: null, previous: null, results: [user(1, 3), user(2, 0)] }), { status: 200 }))));
    render(<ResourceSection config={usersConfig} user={{ id: 99, role: "admin", isAdmin: true }} />);
    await waitFor(() => expect(screen.getByText("3 absences")).toBeTruthy());
    expect(screen.getByRole("columnheader", { name: "Absences" })).toBeTruthy();
    expect(screen.getByText("3 absences").closest("td").dataset.label).toBe("Absences");
    expect(screen.getByText("Aucune")).toBeTruthy();
  });
});
