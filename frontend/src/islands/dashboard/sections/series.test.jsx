import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SeriesButton, SeriesForm, seriesPayload } from "./SessionSeries.jsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (status, body) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
const PLAN = {
  preview: true,
  series_id: null,
  count: 1,
  message: "1 séance(s) à créer, 1 date(s) sautée(s).",
  dates: [{ date: "2026-05-07T18:30:00+02:00", label: "jeudi 07/05/2026 18:30" }],
  skipped: [{ date: "2026-05-14", label: "jeudi 14/05/2026", reason: "Jour férié : Ascension" }],
};

describe("dashboard weekly series", () => {
  it("sends what the API expects", () => {
    const values = { course_id: "3", weekdays: [3, 0], time: "18:30", duration: "75", instructor_id: "7", max_attendees: "8", price_per_participant: "22,50", starts_on: "2026-05-04", ends_on: "2026-05-15" };
    expect(seriesPayload(values, true)).toEqual({ course_id: 3, weekdays: [0, 3], time: "18:30", duration: 75, instructor_id: 7, max_attendees: 8, price_per_participant: "22.50", starts_on: "2026-05-04", ends_on: "2026-05-15", preview: true });
  });

  it("previews the dates and the skipped holidays, then creates the series", async () => {
    const fetchMock = vi.fn((url, options) => {
      const body = JSON.parse(options.body);
      return body.preview ? json(200, PLAN) : json(201, { ...PLAN, preview: false, series_id: 4, message: "1 séance(s) créée(s), 1 date(s) sautée(s)." });
    });
    vi.stubGlobal("fetch", fetchMock);
    const onCreated = vi.fn();
    const instructors = [
      { value: "7", label: "Camille Laurent", active: true },
      { value: "8", label: "Ancienne Prof", active: false },
    ];
    render(<SeriesForm courses={[{ value: "3", label: "Pole Débutant" }]} instructors={instructors} onCreated={onCreated} />);
    expect(screen.getByRole("button", { name: "Créer la série" }).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText("Cours"), { target: { value: "3" } });
    // The instructor is chosen from the list (the inactive ones are not offered).
    const select = screen.getByLabelText("Professeur");
    expect([...select.options].map((o) => o.textContent)).toEqual(["— Choisir —", "Camille Laurent"]);
    fireEvent.change(select, { target: { value: "7" } });
    fireEvent.click(screen.getByLabelText("Jeudi"));
    fireEvent.click(screen.getByRole("button", { name: "Prévisualiser" }));
    await waitFor(() => expect(screen.getByText("jeudi 14/05/2026 — Jour férié : Ascension")).toBeTruthy());
    expect(JSON.parse(fetchMock.mock.calls[0][1].body).instructor_id).toBe(7);
    expect(screen.getByText("jeudi 07/05/2026 18:30")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Créer la série" }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith("1 séance(s) créée(s), 1 date(s) sautée(s)."));
    expect(screen.getByText("Séances créées")).toBeTruthy();
  });

  it("shows the server's refusal in French", async () => {
    vi.stubGlobal("fetch", vi.fn(() => json(409, { error: "La date de fin doit être le jour de début ou après, sur un an au plus." })));
    render(<SeriesForm courses={[]} />);
    fireEvent.click(screen.getByRole("button", { name: "Prévisualiser" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("La date de fin doit être le jour de début ou après, sur un an au plus."));
  });

  it("says in the section that the series is created, and reloads the list", async () => {
    const created = "1 séance(s) créée(s), 1 date(s) sautée(s).";
    vi.stubGlobal(
      "fetch",
      vi.fn((url, options) => (JSON.parse(options.body).preview ? json(200, PLAN) : json(201, { ...PLAN, preview: false, series_id: 4, message: created })))
    );
    const ctx = { options: { courses: [{ value: "3", label: "Pole Flow" }], instructors: [] }, notify: vi.fn(), reload: vi.fn() };
    render(<SeriesButton ctx={ctx} />);
    fireEvent.click(screen.getByRole("button", { name: "Créer une série hebdomadaire" }));
    fireEvent.click(screen.getByRole("button", { name: "Prévisualiser" }));
    await waitFor(() => expect(screen.getByRole("button", { name: "Créer la série" }).disabled).toBe(false));
    fireEvent.click(screen.getByRole("button", { name: "Créer la série" }));
    await waitFor(() => expect(ctx.notify).toHaveBeenCalledWith(created));
    expect(ctx.reload).toHaveBeenCalled();
  });
});
