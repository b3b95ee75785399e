import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import ResourceSection from "../ResourceSection.jsx";
import { MSG_INSTRUCTOR_ADDED, instructorsConfig } from "./Instructors.jsx";
import { instructorChoices, instructorField, instructorsSource } from "./sessionInstructor.js";
import { sessionsConfig } from "./Sessions.jsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (status, body) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
const LIST = [
  { id: 7, name: "Camille Laurent", active: true, user_id: null, user_email: null, bio: "", specialties: "Pole" },
  { id: 8, name: "Ancienne Prof", active: false, user_id: 3, user_email: "prof@example.fr", bio: "", specialties: "" },
];

describe("a session's instructor is chosen from the list", () => {
  it("offers the active instructors, and the session's own one even when inactive", () => {
    const all = instructorsSource.map(LIST);
    expect(instructorChoices(all).map((o) => o.label)).toEqual(["Camille Laurent"]);
    expect(instructorChoices(all, 8).map((o) => o.label)).toEqual(["Camille Laurent", "Ancienne Prof (inactif)"]);
    const field = instructorField({ instructors: all }, { instructor_id: 7 });
    expect([field.name, field.type, field.required, field.label]).toEqual(["instructor_id", "select", true, "Professeur"]);
  });

  it("reads the session's instructor id into the form and sends it back as a number", () => {
    const row = { id: 4, course_id: 2, date: "2031-06-02T19:00:00+02:00", instructor: "Camille Laurent", instructor_id: 7, max_attendees: 8 };
    const values = sessionsConfig.toForm(row);
    expect(values.instructor_id).toBe("7");
    expect(sessionsConfig.toPayload({ ...values, instructor_id: "8" }).instructor_id).toBe(8);
    expect(sessionsConfig.validate({ ...values, instructor_id: "" }, "edit", {}).errors.instructor_id).toBeTruthy();
  });
});

describe("dashboard instructors section", () => {
  it("lists instructors with their account and status, and adds one by name with an optional account", async () => {
    const calls = [];
    vi.stubGlobal(
      "fetch",
      vi.fn((url, options = {}) => {
        calls.push([String(url), options.method || "GET", options.body]);
        if (String(url).startsWith("/api/users")) return json(200, { count: 1, results: [{ id: 3, first_name: "Léa", last_name: "Garnier", email: "lea@example.fr" }] });
        if (options.method === "POST") return json(201, { id: 9, name: "Léa Garnier", active: true, user_id: 3, user_email: "lea@example.fr", bio: "", specialties: "" });
        return json(200, LIST);
      })
    );
    render(<ResourceSection config={instructorsConfig} user={{ isAdmin: true }} />);
    await waitFor(() => expect(screen.getAllByText("Ancienne Prof").length).toBeGreaterThan(0));
    const rows = screen.getAllByRole("row").map((r) => r.textContent);
    expect(rows.some((text) => text.includes("Ancienne Prof") && text.includes("prof@example.fr") && text.includes("Inactif"))).toBe(true);
    expect(rows.some((text) => text.includes("Camille Laurent") && text.includes("Actif") && !text.includes("Inactif"))).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Ajouter un professeur" }));
    fireEvent.change(screen.getByLabelText(/Nom/), { target: { value: "  Léa Garnier " } });
    await waitFor(() => expect(screen.getByRole("option", { name: "Léa Garnier (lea@example.fr)" })).toBeTruthy());
    fireEvent.change(screen.getByLabelText(/Compte utilisateur/), { target: { value: "3" } });
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer" }));
    await waitFor(() => expect(calls.some(([, method]) => method === "POST")).toBe(true));
    const [, , body] = calls.find(([, method]) => method === "POST");
    expect(JSON.parse(body)).toEqual({ name: "Léa Garnier", user_id: 3, active: true, specialties: "", bio: "" });
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(MSG_INSTRUCTOR_ADDED));
  });
});
