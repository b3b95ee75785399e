import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Substitutes } from "./Substitutes.jsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (status, body) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));

const SOON = "2099-03-10T18:30:00+01:00";
const SOON_END = "2099-03-10T19:45:00+01:00";
const MINE = { id: 4, course_title: "Pole Flow", date: SOON, end_date: SOON_END, status: "scheduled", status_label: "Programmé", seats_taken: 2, max_attendees: 10, attendance_url: "" };
const ASKED = { id: 7, session_id: 11, course_title: "Souplesse", date: SOON, end_date: SOON_END, requested_by: "Léa Garnier", accepted_by: null, message: "Je suis malade.", status: "open", status_label: "En attente d'un remplaçant", can_accept: true, can_withdraw: false };

function routes(overrides = {}) {
  return vi.fn((url, options = {}) => {
    for (const [prefix, answer] of Object.entries(overrides)) {
      if (url.startsWith(prefix) && (options.method || "GET") !== "GET") return answer(url, options);
    }
    if (url.startsWith("/api/substitute-requests")) return json(200, [ASKED]);
    return json(200, { instructor: { id: 1, name: "Inès Moreau" }, results: [MINE] });
  });
}

describe("instructor substitutes", () => {
  it("accepts a colleague's request and shows the server's confirmation", async () => {
    const fetchMock = routes({
      "/api/substitute-requests/7/accept": () => json(200, { ...ASKED, status: "accepted", can_accept: false, confirmation: "Merci ! Ce cours est désormais le vôtre : les inscrits et l'équipe sont prévenus." }),
    });
    vi.stubGlobal("fetch", fetchMock);
    render(<Substitutes />);
    await waitFor(() => expect(screen.getByText("Souplesse")).toBeTruthy());
    expect(screen.getByText("Demandé par Léa Garnier")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Accepter le remplacement" }));
    await waitFor(() =>
      expect(screen.getByRole("status").textContent).toBe("Merci ! Ce cours est désormais le vôtre : les inscrits et l'équipe sont prévenus."),
    );
    const post = fetchMock.mock.calls.find(([, options]) => options?.method === "POST");
    expect(post[0]).toBe("/api/substitute-requests/7/accept");
  });

  it("shows in French that another instructor was quicker", async () => {
    vi.stubGlobal("fetch", routes({
      "/api/substitute-requests/7/accept": () => json(409, { error: "Trop tard : un autre professeur a déjà accepté ce remplacement." }),
    }));
    render(<Substitutes />);
    await waitFor(() => expect(screen.getByText("Souplesse")).toBeTruthy());
    fireEvent.click(screen.getByRole("button", { name: "Accepter le remplacement" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("Trop tard : un autre professeur a déjà accepté ce remplacement."));
  });

  it("asks for a substitute on one of their classes with a message", async () => {
    const fetchMock = routes({
      "/api/course-sessions/4/substitute-requests": () => json(201, { ...ASKED, id: 8, confirmation: "Votre demande de remplacement est envoyée aux autres professeurs." }),
    });
    vi.stubGlobal("fetch", fetchMock);
    render(<Substitutes />);
    await waitFor(() => expect(screen.getByText("Pole Flow")).toBeTruthy());
    fireEvent.click(screen.getByRole("button", { name: /Demander un remplaçant pour Pole Flow/ }));
    fireEvent.change(screen.getByLabelText("Message aux autres professeurs (facultatif)"), { target: { value: "Entorse" } });
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la demande" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("Votre demande de remplacement est envoyée aux autres professeurs."));
    const post = fetchMock.mock.calls.find(([, options]) => options?.method === "POST");
    expect(JSON.parse(post[1].body)).toEqual({ message: "Entorse" });
  });
});
