/* A member's health answers in their "Fiche client": shown to an admin, nothing for anyone the server refuses. */
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import HealthAnswers, { HEALTH_ANSWERS_TITLE, MSG_NO_DECLARATION } from "./HealthAnswers.jsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (status, body) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
const DECLARATION = {
  signed_at: "2026-11-02T10:00:00+01:00",
  valid_until: "2027-11-02T10:00:00+01:00",
  questionnaire_version: 1,
  waiver_version: 2,
  house_rules_version: 1,
  answers: [{ question: "Avez-vous une blessure ?", answer: "oui" }],
};

describe("health answers in the client's file", () => {
  it("shows an admin the answers and the versions accepted", async () => {
    vi.stubGlobal("fetch", vi.fn(() => json(200, DECLARATION)));
    render(<HealthAnswers userId={4} />);
    expect(await screen.findByText(HEALTH_ANSWERS_TITLE)).toBeTruthy();
    expect(screen.getByText("Avez-vous une blessure ?").textContent).toContain("oui");
    expect(screen.getByText(/Déclaré le 02\/11\/2026, valable jusqu'au 02\/11\/2027/)).toBeTruthy();
    expect(fetch.mock.calls[0][0]).toBe("/api/users/4/health-declaration");
  });

  it("says when there is none, and shows nothing when the server refuses", async () => {
    vi.stubGlobal("fetch", vi.fn(() => json(404, { error: "Aucune déclaration enregistrée." })));
    render(<HealthAnswers userId={4} />);
    expect(await screen.findByText(MSG_NO_DECLARATION)).toBeTruthy();
    cleanup();
    vi.stubGlobal("fetch", vi.fn(() => json(403, { error: "Seuls les administrateurs…" })));
    const { container } = render(<HealthAnswers userId={4} />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(container.textContent).toBe("");
  });
});
