import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import MessagesApp from "./MessagesApp.jsx";

const texts = {
  fetchFailed: "Impossible de récupérer les messages.",
  noSelection: "Utilisateur non authentifié ou aucun message sélectionné.",
  replyFailed: "Erreur lors de l’ajout de la réponse.",
  replyBlank: "La réponse ne peut pas être vide.",
  deleteFailed: "Erreur lors de la suppression du message.",
  subjectRequired: "Indiquez le sujet de votre message.",
  textRequired: "Écrivez votre message.",
  newFailed: "Le message n'a pas pu être envoyé. Veuillez réessayer.",
};
const NOTICE = "Message envoyé au studio. Vous recevrez un e-mail dès sa réponse.";
const UNREAD = { id: 2, subject: "Tenue", message_text: "?", created_at: "2026-11-20T10:00:00+01:00", last_activity_at: "2026-11-21T10:00:00+01:00", unread: true, responses: [] };

function respond(status, body) {
  return Promise.resolve({ ok: status < 400, status, text: () => Promise.resolve(JSON.stringify(body)) });
}

beforeEach(() => window.history.replaceState(null, "", "/user/messages"));
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("Nouveau message", () => {
  it("checks the subject and the message, then starts the conversation and opens it", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation((url, init) => {
      if (init?.method === "POST") {
        const body = JSON.parse(init.body);
        return respond(201, { id: 9, subject: body.subject, message_text: body.message, created_at: "2026-11-22T10:00:00+01:00", last_activity_at: "2026-11-22T10:00:00+01:00", unread: false, responses: [], notice: NOTICE });
      }
      return respond(200, [UNREAD]);
    });
    render(<MessagesApp mode="member" userId={3} texts={texts} />);
    expect((await screen.findByText("1 conversation avec une nouvelle réponse")).textContent).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Nouveau message" }));
    fireEvent.click(screen.getByRole("button", { name: "Envoyer" }));
    expect(screen.getByRole("alert").textContent).toBe(texts.subjectRequired);
    fireEvent.change(screen.getByLabelText("Sujet"), { target: { value: "Cours d'essai" } });
    fireEvent.click(screen.getByRole("button", { name: "Envoyer" }));
    expect(screen.getByRole("alert").textContent).toBe(texts.textRequired);
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "Puis-je venir samedi ?" } });
    fireEvent.click(screen.getByRole("button", { name: "Envoyer" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(NOTICE));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(post[0]).toBe("/api/contact-messages/mine");
    expect(JSON.parse(post[1].body)).toEqual({ subject: "Cours d'essai", message: "Puis-je venir samedi ?" });
    expect(screen.getByRole("heading", { name: "Cours d'essai" })).toBeTruthy();
    expect(screen.getByText("Puis-je venir samedi ?")).toBeTruthy();
    expect(window.location.pathname).toBe("/user/messages/9");
  });

  it("shows the server's French refusal", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation((url, init) =>
      init?.method === "POST" ? respond(400, { error: "Écrivez votre message." }) : respond(200, []),
    );
    render(<MessagesApp mode="member" userId={3} texts={texts} />);
    fireEvent.click(await screen.findByRole("button", { name: "Nouveau message" }));
    fireEvent.change(screen.getByLabelText("Sujet"), { target: { value: "Question" } });
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "  x" } });
    fireEvent.click(screen.getByRole("button", { name: "Envoyer" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("Écrivez votre message."));
  });
});
