/* A session row at the front desk: date, course, instructor, seats, status and one "Actions" menu; the section's
   buttons and filters above the list; a cancelled class confirmed in French. */
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MSG_CLASS_CANCELLED } from "../messages.js";
import Sessions, { seatsText } from "./Sessions.jsx";

const json = (body, status = 200) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));

const SESSION = {
  id: 12,
  course_id: 3,
  course_title: "Pole Flow",
  date: "2030-01-14T18:30:00+01:00",
  end_date: "2030-01-14T19:30:00+01:00",
  instructor: "Inès Robert",
  instructor_id: 7,
  level: "Débutant",
  details: "",
  max_attendees: 10,
  seats_left: 7,
  seats_taken: 3,
  status: "scheduled",
  is_past: false,
  waitlist_count: 2,
  series_id: null,
};

let calls;
function server(cancelAnswer) {
  calls = [];
  let cancelled = false;
  vi.stubGlobal(
    "fetch",
    vi.fn((url, options = {}) => {
      const method = options.method || "GET";
      calls.push({ url: String(url), method });
      if (method === "POST" && String(url).endsWith("/cancel")) {
        cancelled = true;
        return json(cancelAnswer);
      }
      if (String(url).startsWith("/api/course-sessions?")) {
        const row = cancelled ? { ...SESSION, status: "cancelled" } : SESSION;
        return json({ count: 1, next: null, previous: null, page: 1, results: [row] });
      }
      if (String(url).startsWith("/api/courses")) return json([{ id: 3, title: "Pole Flow" }]);
      if (String(url).startsWith("/api/instructors")) return json([{ id: 7, name: "Inès Robert", active: true }]);
      return json([]);
    })
  );
}

beforeEach(() => {
  document.cookie = "csrftoken=jeton";
  window.history.replaceState(null, "", "/admin/sessions");
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, "", "/");
});

const ROW_NAME = "Actions : Pole Flow du 14/01/2030 18:30";

describe("a session row", () => {
  it("shows date, course, instructor, seats and status, and one Actions button", async () => {
    server({});
    render(<Sessions user={{ role: "admin" }} />);
    const button = await screen.findByRole("button", { name: ROW_NAME });
    const row = button.closest("tr");
    expect(within(row).getAllByRole("button")).toEqual([button]);
    expect(within(row).getAllByRole("cell").map((cell) => cell.textContent)).toEqual([
      "14/01/2030 18:30",
      "Pole Flow · Débutant",
      "Inès Robert",
      "3 / 10 · 2 en attente",
      "À venir",
      "Actions : Pole Flow du 14/01/2030 18:30 ▾",
    ]);
    expect(seatsText({ seats_taken: 10, max_attendees: 10, waitlist_count: 0 })).toBe("10 / 10");
  });

  it("keeps the session's actions in its menu", async () => {
    server({});
    render(<Sessions user={{ role: "admin" }} />);
    fireEvent.click(await screen.findByRole("button", { name: ROW_NAME }));
    const items = within(screen.getByRole("menu")).getAllByRole("menuitem").map((item) => item.textContent);
    expect(items).toEqual([
      "Participants (3/10)",
      "Présences",
      "Liste d'attente (2) : Pole Flow du 14/01/2030 18:30",
      "Annuler le cours",
      "Modifier Pole Flow du 14/01/2030 18:30",
      "Supprimer Pole Flow du 14/01/2030 18:30",
    ]);
  });

  it("has 'Ajouter' and 'Créer une série hebdomadaire' at the top, then the labelled filters, then the list", async () => {
    server({});
    render(<Sessions user={{ role: "admin" }} />);
    const table = (await screen.findByRole("button", { name: ROW_NAME })).closest("table");
    const before = (node) => Boolean(node.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING);
    const heading = screen.getByRole("heading", { name: "Sessions de cours" });
    const add = screen.getByRole("button", { name: "Ajouter une session" });
    const series = screen.getByRole("button", { name: "Créer une série hebdomadaire" });
    const filters = screen.getByRole("search", { name: "Filtrer les sessions" });
    for (const node of [heading, add, series, filters]) expect(before(node)).toBe(true);
    // The filters come under the section's title and buttons, inside the section.
    expect(heading.compareDocumentPosition(filters) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(series.compareDocumentPosition(filters) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // Each filter is its own label over its own control.
    for (const name of ["Période", "Cours", "Professeur", "Recherche"]) {
      const control = within(filters).getByLabelText(name);
      const group = control.closest(".dash-filter");
      expect(group.querySelectorAll("label")).toHaveLength(1);
      expect(group.querySelector("label").textContent).toBe(name);
    }
  });
});

describe("cancelling a class from its row", () => {
  it("says in the section what the server did, closes the menu and shows the class cancelled", async () => {
    const message = "Le cours est annulé : 12 réservation(s) annulée(s), les inscrits sont prévenus par e-mail.";
    server({ ...SESSION, status: "cancelled", message });
    render(<Sessions user={{ role: "admin" }} />);
    const button = await screen.findByRole("button", { name: ROW_NAME });
    fireEvent.click(button);
    fireEvent.click(screen.getByRole("menuitem", { name: "Annuler le cours" }));
    const dialog = document.querySelector("dialog[open]");
    fireEvent.change(within(dialog).getByLabelText("Motif (envoyé aux inscrits)"), { target: { value: "Professeure malade" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirmer l'annulation" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(message));
    expect(screen.queryByRole("menu")).toBeNull();
    await waitFor(() => expect(within(button.closest("tr")).getByText("Annulé")).toBeTruthy());
    expect(calls.filter((c) => c.method === "GET" && c.url.startsWith("/api/course-sessions?")).length).toBeGreaterThan(1);
  });

  it("says it in French even when the server's answer has no message", async () => {
    server({ ...SESSION, status: "cancelled" });
    render(<Sessions user={{ role: "admin" }} />);
    fireEvent.click(await screen.findByRole("button", { name: ROW_NAME }));
    fireEvent.click(screen.getByRole("menuitem", { name: "Annuler le cours" }));
    const dialog = document.querySelector("dialog[open]");
    fireEvent.change(within(dialog).getByLabelText("Motif (envoyé aux inscrits)"), { target: { value: "Travaux" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirmer l'annulation" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(MSG_CLASS_CANCELLED));
    expect(MSG_CLASS_CANCELLED).toBe("Cours annulé : les inscrits sont prévenus par e-mail.");
  });
});
