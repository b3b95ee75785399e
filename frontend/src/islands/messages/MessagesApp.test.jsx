import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import MessagesApp from "./MessagesApp.jsx";

const texts = {
  fetchFailed: "Impossible de récupérer les messages.",
  noSelection: "Utilisateur non authentifié ou aucun message sélectionné.",
  replyFailed: "Erreur lors de l’ajout de la réponse.",
  replyBlank: "La réponse ne peut pas être vide.",
  deleteFailed: "Erreur lors de la suppression du message.",
};

const HOSTILE = '<img src=x onerror="alert(1)"><b id="injected">x</b>';
const message = {
  id: 7,
  name: "Emma",
  email: "emma@example.fr",
  phone: "",
  subject: "Cours d'essai",
  message_text: HOSTILE,
  followUp: false,
  user_id: 3,
  created_at: "2026-11-20T10:00:00+01:00",
  last_activity_at: "2026-11-20T10:00:00+01:00",
  unread: true,
  responses: [{ id: 1, response_text: "Bonjour !", timestamp: "2026-11-20T11:00:00+01:00", author: "Admin", author_role: "staff" }],
};

function respond(status, body) {
  return Promise.resolve({ ok: status < 400, status, text: () => Promise.resolve(body === undefined ? "" : JSON.stringify(body)) });
}

beforeEach(() => {
  window.history.replaceState(null, "", "/user/messages");
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("member messages", () => {
  it("lists conversations, opens a thread, shows staff replies as Admin and keeps HTML as text", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation((url) => respond(200, url.includes("/user/") ? [message] : message));
    const { container } = render(<MessagesApp mode="member" userId={3} texts={texts} />);
    fireEvent.click(await screen.findByRole("button", { name: /Cours d'essai/ }));
    expect(await screen.findByText("Admin")).toBeTruthy();
    expect(screen.getByText(HOSTILE)).toBeTruthy();
    expect(container.querySelector("#injected")).toBeNull();
    expect(window.location.pathname).toBe("/user/messages/7");
  });

  it("shows the API's French reason when it refuses the list, and aborts the request on unmount", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(() => respond(403, { error: "Vous n'avez pas la permission d'effectuer cette action." }));
    render(<MessagesApp mode="member" userId={3} texts={texts} />);
    expect((await screen.findByRole("alert")).textContent).toBe("Vous n'avez pas la permission d'effectuer cette action.");
    fetchMock.mockImplementation(() => new Promise(() => {}));
    cleanup();
    render(<MessagesApp mode="staff" messageId={7} texts={texts} />);
    const { signal } = fetchMock.mock.calls.at(-1)[1];
    expect(signal.aborted).toBe(false);
    cleanup();
    expect(signal.aborted).toBe(true);
  });

  it("says when the messages cannot be fetched", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(() => respond(500, {}));
    render(<MessagesApp mode="member" userId={3} texts={texts} />);
    expect((await screen.findByRole("alert")).textContent).toBe(texts.fetchFailed);
  });

  it("appends a reply and clears the box; refuses a blank one; reports a failure", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation((url, options) => {
      if (options.method === "PUT") {
        return respond(201, { updatedResponses: [...message.responses, { id: 2, response_text: "Merci", timestamp: "2026-11-20T12:00:00+01:00", author: "Emma", author_role: "member" }] });
      }
      return respond(200, url.includes("/user/") ? [message] : message);
    });
    render(<MessagesApp mode="member" userId={3} selectedId={7} texts={texts} />);
    const box = await screen.findByLabelText("Votre réponse");
    fireEvent.click(screen.getByRole("button", { name: "Répondre" }));
    expect((await screen.findByRole("alert")).textContent).toBe(texts.replyBlank);
    fireEvent.change(box, { target: { value: "Merci" } });
    fireEvent.click(screen.getByRole("button", { name: "Répondre" }));
    expect(await screen.findByText("Merci")).toBeTruthy();
    await waitFor(() => expect(box.value).toBe(""));

    fetchMock.mockImplementation(() => respond(500, {}));
    fireEvent.change(box, { target: { value: "Encore" } });
    fireEvent.click(screen.getByRole("button", { name: "Répondre" }));
    expect((await screen.findByRole("alert")).textContent).toBe(texts.replyFailed);
    fetchMock.mockImplementation(() => respond(401, { error: "Vous devez être connecté." }));
    fireEvent.click(screen.getByRole("button", { name: "Répondre" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe(texts.noSelection));
  });
});

describe("staff message", () => {
  it("says when deleting fails", async () => {
    vi.spyOn(window, "confirm").mockReturnValue(true);
    vi.spyOn(globalThis, "fetch").mockImplementation((url, options) => (options.method === "DELETE" ? respond(500, {}) : respond(200, message)));
    render(<MessagesApp mode="staff" messageId={7} texts={texts} />);
    fireEvent.click(await screen.findByRole("button", { name: "Supprimer le message" }));
    expect((await screen.findByRole("alert")).textContent).toBe(texts.deleteFailed);
  });
});
