/* Santé et décharge: staff publish a new version of the questionnaire or of a document; earlier ones stay readable. */
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import Health, { MSG_DOCUMENT_REQUIRED, MSG_PUBLISHED, MSG_QUESTION_TEXT_REQUIRED } from "./Health.jsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (status, body) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
const QUESTIONNAIRE = { version: 1, published_at: "2026-11-01T10:00:00+01:00", questions: [{ text: "Avez-vous une blessure ?", advice: "Parlez-en." }] };
const WAIVER = [
  { kind: "waiver", version: 2, title: "Décharge", body: "Texte deux.", published_at: "2026-11-02T10:00:00+01:00" },
  { kind: "waiver", version: 1, title: "Décharge", body: "Texte un.", published_at: "2026-10-01T10:00:00+02:00" },
];

function serve() {
  const posts = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((url, options) => {
      if (options?.method === "POST") {
        posts.push({ url, body: JSON.parse(options.body) });
        return json(201, {});
      }
      return json(200, String(url).includes("questionnaires") ? [QUESTIONNAIRE] : WAIVER);
    }),
  );
  return posts;
}

describe("santé et décharge", () => {
  it("publishes a new questionnaire with an added question, refusing an empty one", async () => {
    const posts = serve();
    render(<Health />);
    expect(await screen.findByText("Questionnaire de santé (version 1 en vigueur)")).toBeTruthy();
    expect(screen.getByDisplayValue("Avez-vous une blessure ?")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Ajouter une question" }));
    fireEvent.click(screen.getByRole("button", { name: "Publier le questionnaire" }));
    expect(screen.getByRole("alert").textContent).toBe(MSG_QUESTION_TEXT_REQUIRED);
    fireEvent.change(screen.getAllByLabelText("Texte (réponse oui/non)")[1], { target: { value: "Êtes-vous enceinte ?" } });
    fireEvent.click(screen.getByRole("button", { name: "Publier le questionnaire" }));
    await waitFor(() => expect(screen.getByText(MSG_PUBLISHED)).toBeTruthy());
    expect(posts[0]).toEqual({
      url: "/api/health/questionnaires",
      body: { questions: [{ text: "Avez-vous une blessure ?", advice: "Parlez-en." }, { text: "Êtes-vous enceinte ?", advice: "" }] },
    });
    expect(MSG_PUBLISHED).toBe("Nouvelle version publiée : elle sera demandée avant la prochaine réservation de chaque membre.");
  });

  it("publishes a document's next version and keeps the earlier ones readable", async () => {
    const posts = serve();
    render(<Health />);
    expect(await screen.findByText("Décharge de responsabilité (version 2 en vigueur)")).toBeTruthy();
    expect(screen.getByText("Texte un.")).toBeTruthy(); // version 1, folded
    const body = screen.getByDisplayValue("Texte deux.");
    fireEvent.change(body, { target: { value: "  " } });
    fireEvent.click(screen.getByRole("button", { name: "Publier : décharge de responsabilité" }));
    expect(screen.getByRole("alert").textContent).toBe(MSG_DOCUMENT_REQUIRED);
    fireEvent.change(body, { target: { value: "Texte trois." } });
    fireEvent.click(screen.getByRole("button", { name: "Publier : décharge de responsabilité" }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({ url: "/api/health/documents", body: { kind: "waiver", title: "Décharge", body: "Texte trois." } });
  });
});
