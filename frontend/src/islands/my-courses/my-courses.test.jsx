import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { LABEL_PAID_BY_CARD, MSG_FEEDBACK_REQUIRED, MSG_LOAD_MORE, cancelConsequence, paymentLabel } from "./messages.js";

vi.mock("../../components/toast.jsx", () => ({ notify: vi.fn() }));
const { default: MyCoursesIsland } = await import("./MyCoursesIsland.jsx");

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const card = { id: 5, title: "Carte 10 cours", kind: "card" };
const page = (results, next = null) => ({ count: results.length, next, previous: null, results });

const row = {
  reservation_id: 11,
  course_id: 1,
  title: "Pole Exotic",
  date: "2031-03-10T18:30:00+01:00",
  level: "Débutant",
  instructor: "Léa",
  participants: 1,
  status: "confirmed",
  status_label: "Confirmée",
  is_past: false,
  can_cancel: true,
  paid_with_pass: card,
  credits_spent: 1,
};

describe("my courses: passes and cancellation (issue 10)", () => {
  it("says how each reservation was paid", () => {
    expect(paymentLabel(row)).toBe("Carte 10 cours (1 crédit)");
    expect(paymentLabel({ ...row, credits_spent: 2 })).toBe("Carte 10 cours (2 crédits)");
    expect(paymentLabel({ ...row, paid_with_pass: { title: "Abonnement annuel illimité", kind: "subscription" }, credits_spent: 0 })).toBe("Abonnement annuel illimité");
    expect(paymentLabel({ ...row, paid_with_pass: null })).toBe(LABEL_PAID_BY_CARD);
    expect(cancelConsequence(row)).toBe("Votre crédit sera rendu sur votre Carte 10 cours.");
    expect(cancelConsequence({ ...row, credits_spent: 2 })).toBe("Vos 2 crédits seront rendus sur votre Carte 10 cours.");
  });

  it("cancels after confirmation and reloads the list", async () => {
    let cancelled = false;
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async (url, options) => {
      if (String(url).includes("/cancel")) {
        cancelled = true;
        return new Response(JSON.stringify({ message: "Réservation annulée : 1 crédit(s) rendu(s) sur votre Carte 10 cours." }), { status: 200 });
      }
      return new Response(JSON.stringify(page(cancelled ? [] : [row])), { status: 200 });
    });
    render(<MyCoursesIsland user={{ id: 3 }} listUrl="/api/course-feedback/user/3" cancellationHours={24} />);
    expect(await screen.findByText("Carte 10 cours (1 crédit)")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /Annuler la réservation Pole Exotic/ }));
    fireEvent.click(screen.getByRole("button", { name: "Confirmer l'annulation" }));
    expect(await screen.findByText("Aucun cours à venir. Réservez depuis le planning !")).toBeTruthy();
    const post = fetchMock.mock.calls.find(([url]) => String(url).includes("/cancel"));
    expect(post[0]).toBe("/api/reservations-courses/11/cancel");
    expect(post[1].method).toBe("POST");
  });

  it("reads the paginated history: page 1 first, older past sessions on demand", async () => {
    const past = (id, date) => ({ ...row, reservation_id: id, date, is_past: true, can_cancel: false, title: `Cours ${id}` });
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async (url) => {
      const pageNumber = new URL(String(url), "http://localhost").searchParams.get("page");
      if (pageNumber === "1") return new Response(JSON.stringify(page([row, past(21, "2026-03-02T18:30:00+01:00")], "http://testserver/next")), { status: 200 });
      return new Response(JSON.stringify(page([past(22, "2026-02-02T18:30:00+01:00")])), { status: 200 });
    });
    render(<MyCoursesIsland user={{ id: 3 }} listUrl="/api/course-feedback/user/3" cancellationHours={24} />);
    expect(await screen.findByText("Cours 21")).toBeTruthy();
    expect(screen.queryByText("Cours 22")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: MSG_LOAD_MORE }));
    expect(await screen.findByText("Cours 22")).toBeTruthy();
    expect(screen.queryByRole("button", { name: MSG_LOAD_MORE })).toBeNull();
    const pastRows = screen.getByRole("table", { name: "Cours passés" }).querySelectorAll("tbody tr");
    expect([...pastRows].map((tr) => tr.cells[0].textContent)).toEqual(["Cours 21", "Cours 22"]);
    const pages = fetchMock.mock.calls.map(([url]) => new URL(String(url), "http://localhost").searchParams.get("page"));
    expect(pages).toEqual(["1", "2"]);
    expect(String(fetchMock.mock.calls[0][0]).startsWith("/api/course-feedback/user/3?page=1")).toBe(true);
  });
});

describe("feedback form (issue 24, bug 6)", () => {
  it("says in French what is missing, marks the fields and focuses the first one", async () => {
    const past = { ...row, reservation_id: 12, is_past: true, can_cancel: false, can_give_feedback: true, rating: null, comment: "" };
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(JSON.stringify(page([past])), { status: 200 }));
    render(<MyCoursesIsland user={{ id: 3 }} listUrl="/api/course-feedback/user/3" cancellationHours={24} />);
    fireEvent.click(await screen.findByRole("button", { name: "Enregistrer mon avis" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe(MSG_FEEDBACK_REQUIRED);
    const comment = screen.getByLabelText("Commentaire *");
    expect(comment.getAttribute("aria-invalid")).toBe("true");
    expect(comment.getAttribute("aria-describedby")).toBe(alert.id);
    const firstStar = screen.getByRole("radio", { name: "1 sur 5" });
    expect(document.activeElement).toBe(firstStar);
    expect(fetchMock.mock.calls.filter(([, options]) => options?.method === "POST")).toHaveLength(0);
  });
});
