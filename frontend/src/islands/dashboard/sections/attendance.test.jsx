import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AttendanceButton, AttendanceSheet, MSG_HEALTH_MISSING, MSG_SHEET_CANCELLED } from "./Attendance.jsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (status, body) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));

const LINE = { reservation_id: 5, user_id: 9, first_name: "Emma", last_name: "Petit", email: "emma@example.fr", participants: 1, payment: "Carte bancaire", attendance: null, walk_in: false, no_shows: 2 };
const SHEET = { session: { id: 3, attendance_open: true, attendance_opens_at: "2026-11-28T16:30:00+01:00" }, counts: { booked: 1, present: 0, absent: 0, unmarked: 1 }, results: [LINE] };

describe("dashboard attendance sheet", () => {
  it("shows « À signaler » with its date and a declaration to complete, nothing of the answers", async () => {
    const flagged = { ...LINE, health_flag_since: "2026-11-02T10:00:00+01:00", health_missing: false };
    const missing = { ...LINE, reservation_id: 6, user_id: 10, first_name: "Inès", last_name: "Robert", health_flag_since: null, health_missing: true };
    vi.stubGlobal("fetch", vi.fn(() => json(200, { ...SHEET, results: [flagged, missing] })));
    render(<AttendanceSheet sessionId={3} />);
    await waitFor(() => expect(screen.getByText("À signaler (déclaré le 02/11/2026)")).toBeTruthy());
    expect(screen.getAllByText(MSG_HEALTH_MISSING)).toHaveLength(1);
    expect(MSG_HEALTH_MISSING).toBe("Questionnaire de santé à compléter");
  });

  it("marks a member present and shows the counts and no-shows", async () => {
    const fetchMock = vi.fn((url, options) =>
      options?.method === "POST"
        ? json(200, { ...SHEET, counts: { booked: 1, present: 1, absent: 0, unmarked: 0 }, results: [{ ...LINE, attendance: "present" }], message: "Présence enregistrée." })
        : json(200, SHEET)
    );
    vi.stubGlobal("fetch", fetchMock);
    render(<AttendanceSheet sessionId={3} />);
    await waitFor(() => expect(screen.getByText("Emma Petit")).toBeTruthy());
    expect(screen.getByText("2 absence(s) au total")).toBeTruthy();
    expect(screen.getByText("1 inscrit(s) · 0 présent(s) · 0 absent(s) · 1 à pointer")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Présent" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("Présence enregistrée."));
    expect(screen.getByRole("button", { name: "Présent" }).getAttribute("aria-pressed")).toBe("true");
    expect(fetchMock.mock.calls[1][0]).toBe("/api/course-sessions/3/attendance");
    expect(JSON.parse(fetchMock.mock.calls[1][1].body)).toEqual({ reservation_id: 5, present: true });
  });

  it("adds a walk-in paid at the desk and shows refusals in French", async () => {
    const fetchMock = vi.fn((url, options) =>
      options?.method === "POST" ? json(404, { error: "Aucun compte n'existe avec cet e-mail : créez d'abord le compte de la personne." }) : json(200, SHEET)
    );
    vi.stubGlobal("fetch", fetchMock);
    render(<AttendanceSheet sessionId={3} />);
    await waitFor(() => expect(screen.getByText("Emma Petit")).toBeTruthy());
    fireEvent.change(screen.getByLabelText("E-mail de son compte"), { target: { value: " zoe@example.fr " } });
    fireEvent.click(screen.getByLabelText("Payé à l'accueil"));
    fireEvent.click(screen.getByRole("button", { name: "Ajouter et pointer présent" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("Aucun compte n'existe avec cet e-mail : créez d'abord le compte de la personne."));
    expect(fetchMock.mock.calls[1][0]).toBe("/api/course-sessions/3/walk-ins");
    expect(JSON.parse(fetchMock.mock.calls[1][1].body)).toEqual({ email: "zoe@example.fr", participants: 1, paid_with: "desk" });
  });

  it("says when the sheet opens and offers no mark or walk-in before then (the server's rule, from its answer)", async () => {
    const closed = { ...SHEET, session: { id: 3, status: "scheduled", attendance_open: false, attendance_opens_at: "2026-11-28T16:30:00+01:00" } };
    const fetchMock = vi.fn(() => json(200, closed));
    vi.stubGlobal("fetch", fetchMock);
    render(<AttendanceSheet sessionId={3} />);
    await waitFor(() => expect(screen.getByText("Emma Petit")).toBeTruthy());
    expect(screen.getByRole("status").textContent).toBe("La feuille de présence ouvre le samedi 28 novembre 2026 à 16:30.");
    expect(screen.queryByRole("button", { name: "Présent" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Absent" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Ajouter et pointer présent" })).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("says a cancelled class has no sheet instead of an opening time", async () => {
    vi.stubGlobal("fetch", vi.fn(() => json(200, { ...SHEET, session: { id: 3, status: "cancelled", attendance_open: false, attendance_opens_at: "2026-11-28T16:30:00+01:00" } })));
    render(<AttendanceSheet sessionId={3} />);
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(MSG_SHEET_CANCELLED));
  });

  it("has no attendance for a cancelled class", () => {
    const { container } = render(<AttendanceButton session={{ id: 3, status: "cancelled" }} />);
    expect(container.textContent).toBe("");
  });
});
