/* Staff download a member's data and delete their account on request, from the users list. */
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import ResourceSection from "../ResourceSection.jsx";
import { eraseQuestion } from "./MemberData.jsx";
import { usersConfig } from "./Users.jsx";
import { polyfillDialog } from "../../../testing/dialog.js";

polyfillDialog();


const json = (body, status = 200) => new Response(JSON.stringify(body), { status });
const row = (id, role) => ({
  id, role, first_name: `P${id}`, last_name: `N${id}`, email: `u${id}@example.fr`, phone: "", address: "",
  postal_code: "", city: "", country: "France", can_edit: true,
});
const ERASED = "Le compte est supprimé : données personnelles effacées, réservations à venir annulées, factures conservées.";

let calls;
beforeEach(() => {
  document.cookie = "csrftoken=jeton";
  calls = [];
  globalThis.fetch = vi.fn(async (url, options = {}) => {
    const method = options.method || "GET";
    calls.push({ url, method });
    if (method === "POST") return json({ message: ERASED });
    return json({ count: 2, next: null, previous: null, results: [row(4, "user"), row(5, "supervisor")] });
  });
});
afterEach(cleanup);

describe("a member's data from the users list", () => {
  it("links a member's data export and deletes the account after confirming", async () => {
    render(<ResourceSection config={usersConfig} user={{ id: 9, role: "admin", isAdmin: true }} />);
    const link = await screen.findByRole("link", { name: "Données de P4 N4 (JSON)" });
    expect(link.getAttribute("href")).toBe("/api/users/4/export");
    expect(screen.queryByRole("link", { name: /Données de P5 N5/ })).toBeNull(); // never a staff account
    fireEvent.click(screen.getByRole("button", { name: "Effacer à sa demande (RGPD) le compte de P4 N4" }));
    expect(screen.getByText(eraseQuestion(row(4, "user")))).toBeTruthy();
    expect(eraseQuestion(row(4, "user"))).toContain("ses paiements et factures restent dans la comptabilité");
    fireEvent.click(screen.getByRole("button", { name: "Supprimer" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.url === "/api/users/4/erase")).toBe(true));
    expect((await screen.findByRole("status")).textContent).toBe(ERASED);
  });
});
