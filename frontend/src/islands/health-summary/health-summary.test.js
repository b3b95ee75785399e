import { afterEach, describe, expect, it, vi } from "vitest";

import { LABEL_UPDATE, MSG_LOAD_FAILED, MSG_NONE, MSG_NOTHING_ASKED, mountHealthSummary } from "./index.js";

const declaration = {
  signed_at: "2026-11-02T10:00:00+01:00",
  valid_until: "2027-11-02T10:00:00+01:00",
  questionnaire_version: 1,
  answers: [
    { question: "Avez-vous une blessure ?", answer: "non" },
    { question: "Êtes-vous enceinte ?", answer: "oui" },
  ],
  waiver_version: 2,
  house_rules_version: 1,
};

function answer(body, status = 200) {
  return Promise.resolve(new Response(JSON.stringify(body), { status }));
}

function serve(routes) {
  return vi.spyOn(globalThis, "fetch").mockImplementation((url) => {
    const [body, status] = routes[url];
    return answer(body, status);
  });
}

afterEach(() => vi.restoreAllMocks());

describe("health summary on the profile", () => {
  it("shows the date, the versions accepted and each answer", async () => {
    serve({ "/api/health/current": [{ missing: [] }], "/api/health/declaration": [declaration] });
    const root = document.createElement("div");
    await mountHealthSummary(root);
    expect(root.textContent).toContain("Remplie le 2 novembre 2026, valable jusqu'au 2 novembre 2027.");
    expect(root.textContent).toContain(
      "Accepté : questionnaire version 1, décharge de responsabilité version 2, règlement intérieur version 1.",
    );
    expect([...root.querySelectorAll("dt")].map((n) => n.textContent)).toEqual([
      "Avez-vous une blessure ?",
      "Êtes-vous enceinte ?",
    ]);
    expect([...root.querySelectorAll("dd")].map((n) => n.textContent)).toEqual(["Non", "Oui"]);
  });

  it("says what is missing when a new version is to accept", async () => {
    serve({ "/api/health/current": [{ missing: ["waiver"] }], "/api/health/declaration": [declaration] });
    const root = document.createElement("div");
    await mountHealthSummary(root);
    expect(root.querySelector('[role="status"]').textContent).toBe(
      "Avant votre prochaine réservation : la décharge de responsabilité.",
    );
  });

  it("tells a member without a declaration that it will be asked", async () => {
    serve({
      "/api/health/current": [{ missing: ["questionnaire", "waiver", "house_rules"] }],
      "/api/health/declaration": [{ error: "Aucune déclaration." }, 404],
    });
    const root = document.createElement("div");
    await mountHealthSummary(root);
    expect(root.textContent).toContain(MSG_NONE);
  });

  it("says nothing is asked when the studio asks nothing", async () => {
    serve({ "/api/health/current": [{ missing: [] }], "/api/health/declaration": [{ error: "Aucune." }, 404] });
    const root = document.createElement("div");
    await mountHealthSummary(root);
    expect(root.textContent).toContain(MSG_NOTHING_ASKED);
  });

  it("says so in French when the declaration cannot be read", async () => {
    serve({ "/api/health/current": [{ error: "Erreur" }, 500], "/api/health/declaration": [declaration] });
    const root = document.createElement("div");
    await mountHealthSummary(root);
    expect(root.querySelector('[role="alert"]').textContent).toBe(MSG_LOAD_FAILED);
  });

  it("reopens the questionnaire on « Mettre à jour », then reads the declaration again", async () => {
    const fetchMock = serve({ "/api/health/current": [{ missing: [] }], "/api/health/declaration": [declaration] });
    const open = vi.fn();
    const root = document.createElement("div");
    await mountHealthSummary(root, { open });
    const button = [...root.querySelectorAll("button")].find((b) => b.textContent === LABEL_UPDATE);
    button.click();
    expect(open).toHaveBeenCalledTimes(1);
    const [, done] = open.mock.calls[0];
    await done();
    expect(fetchMock).toHaveBeenCalledTimes(4);
  });
});
