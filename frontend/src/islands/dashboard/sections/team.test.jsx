import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import Team, { amountText, MSG_RULE_DELETED, MSG_RULE_SAVED } from "./Team.jsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (status, body) => Promise.resolve(new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));

const INSTRUCTORS = [{ id: 3, name: "Léa Garnier", active: true }, { id: 4, name: "Inès Moreau", active: false }];
const RULE = { id: 9, instructor_id: 3, starts_on: "2026-09-01", kind: "per_class", kind_label: "Par cours", class_amount: "40.00", attendee_amount: "0.00" };
const STATEMENT = {
  instructor: { id: 3, name: "Léa Garnier" }, month: "2026-10", month_label: "octobre 2026", total: "52.00",
  lines: [{ session_id: 1, date: "2026-10-05T19:00:00+02:00", course_title: "Pole Flow", attendees: 4, rule_kind: "per_attendee", rule: "Par participant : 13,00 €", amount: "52.00" }],
  csv_url: "/api/instructors/3/statements?month=2026-10&format=csv", pdf_url: "/api/instructors/3/statements?month=2026-10&format=pdf",
};

function server(overrides = {}) {
  return vi.fn((url, options = {}) => {
    const method = options.method || "GET";
    const key = `${method} ${url.split("?")[0]}`;
    if (overrides[key]) return overrides[key](url, options);
    if (url.startsWith("/api/instructors/3/pay-rules")) return json(200, [RULE]);
    if (url.startsWith("/api/instructors/3/statements")) return json(200, STATEMENT);
    if (url.startsWith("/api/instructors")) return json(200, INSTRUCTORS);
    if (url.startsWith("/api/substitute-requests")) return json(200, [{ id: 2, status: "open", course_title: "Souplesse", date: "2026-12-01T18:00:00+01:00", requested_by: "Léa Garnier", message: "Malade" }]);
    return json(404, { error: "?" });
  });
}

describe("dashboard team section", () => {
  it("lists the rules, the statement with its files and the open substitute requests", async () => {
    vi.stubGlobal("fetch", server());
    render(<Team />);
    expect(await screen.findByText("Par cours")).toBeTruthy();
    expect(screen.getByText("01/09/2026")).toBeTruthy();
    expect(await screen.findByText("Pole Flow")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Télécharger le CSV" }).getAttribute("href")).toBe(STATEMENT.csv_url);
    expect(screen.getByRole("link", { name: "Télécharger le PDF" }).getAttribute("href")).toBe(STATEMENT.pdf_url);
    expect(await screen.findByText(/Souplesse, .* : demandé par Léa Garnier/)).toBeTruthy();
  });

  it("adds a base plus per attendee rule with French amounts and confirms it", async () => {
    const fetchMock = server({ "POST /api/instructors/3/pay-rules": () => json(201, { ...RULE, id: 10 }) });
    vi.stubGlobal("fetch", fetchMock);
    render(<Team />);
    fireEvent.click(await screen.findByRole("button", { name: "Ajouter une règle" }));
    fireEvent.change(screen.getByLabelText("À partir du"), { target: { value: "2026-11-01" } });
    fireEvent.change(screen.getByLabelText("Mode de rémunération"), { target: { value: "base_plus_attendee" } });
    fireEvent.change(screen.getByLabelText("Forfait par cours (€)"), { target: { value: "20,50" } });
    fireEvent.change(screen.getByLabelText("Montant par participant présent (€)"), { target: { value: "2,5" } });
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer la règle" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(MSG_RULE_SAVED));
    // The statement is read again under the new rule.
    await waitFor(() => expect(fetchMock.mock.calls.filter(([url]) => url.startsWith("/api/instructors/3/statements")).length).toBe(2));
    const post = fetchMock.mock.calls.find(([, o]) => o?.method === "POST");
    expect(JSON.parse(post[1].body)).toEqual({ starts_on: "2026-11-01", kind: "base_plus_attendee", class_amount: "20.50", attendee_amount: "2.5" });
  });

  it("shows the server's refusal in French and deletes after a confirmation", async () => {
    const refusal = "Une règle de ce professeur commence déjà ce jour-là : modifiez-la plutôt.";
    const fetchMock = server({
      "PUT /api/instructor-pay-rules/9": () => json(409, { error: refusal }),
      "DELETE /api/instructor-pay-rules/9": () => json(204, null),
    });
    vi.stubGlobal("fetch", fetchMock);
    render(<Team />);
    fireEvent.click(await screen.findByRole("button", { name: "Modifier la règle du 01/09/2026" }));
    const form = screen.getByRole("form", { name: "Modifier la règle" });
    fireEvent.click(within(form).getByRole("button", { name: "Enregistrer la règle" }));
    expect(await within(form).findByRole("alert")).toHaveProperty("textContent", refusal);
    fireEvent.click(within(form).getByRole("button", { name: "Annuler" }));
    fireEvent.click(screen.getByRole("button", { name: "Supprimer la règle du 01/09/2026" }));
    fireEvent.click(screen.getByRole("button", { name: "Confirmer la suppression" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(MSG_RULE_DELETED));
  });

  it("reads a French amount", () => {
    expect(amountText("1 234,50")).toBe("1234.50");
    expect(amountText("")).toBe("0");
  });
});
