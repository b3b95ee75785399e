import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { outputSize } from "./sections/cropImage.js";
import { toApiDateTime, toInputDateTime, formatDateTime } from "./format.js";
import * as M from "./messages.js";
import { listQuery, normaliseList, pageWindow, toggleOrdering, totalPages } from "./paging.js";
import { fieldErrors } from "./request.js";
import { sectionFromPath, SECTIONS } from "./sections.js";
import {
  mediaTypeFor,
  validateMedia,
  validateOrder,
  validateSession,
  validateSlider,
  validateSlideshow,
  validateTarif,
} from "./validation.js";
import Pagination from "./Pagination.jsx";

afterEach(cleanup);

describe("admin messages", () => {
  it("keeps the exact wording", () => {
    expect(M.MSG_USERS_LOAD).toBe("Erreur lors du chargement des utilisateurs");
    expect(M.MSG_USER_DELETE).toBe("Erreur lors de la suppression de l’utilisateur");
    expect(M.MSG_SAVE).toBe("Erreur lors de la sauvegarde.");
    expect(M.MSG_SESSIONS_LOAD).toBe("Erreur de chargement des sessions.");
    expect(M.MSG_COURSES_LOAD).toBe("Erreur de chargement des cours.");
    expect(M.MSG_DELETE).toBe("Erreur lors de la suppression.");
    expect(M.MSG_TARIFS_LOAD).toBe("Erreur lors de la récupération des tarifs.");
    expect(M.MSG_SESSION_UPDATED).toBe("Session modifiée avec succès !");
    expect(M.MSG_SESSION_ADDED).toBe("Session ajoutée avec succès !");
    expect(M.MSG_SESSION_DELETED).toBe("Session supprimée avec succès !");
  });
});

describe("admin form rules", () => {
  it("session: course, date-time and instructor required, places at least 1", () => {
    const invalid = validateSession({ course_id: "", date: "", instructor_id: "", max_attendees: "0" });
    expect(invalid.errors).toEqual({
      course_id: M.MSG_FIELD_REQUIRED,
      date: M.MSG_FIELD_REQUIRED,
      instructor_id: M.MSG_FIELD_REQUIRED,
      max_attendees: M.MSG_SESSION_PLACES_MIN,
    });
    expect(validateSession({ course_id: "1", date: "2026-03-01T18:00", instructor_id: "7", max_attendees: "10", level: "" })).toBeNull();
  });

  it("tarif: title, price as a number and type required", () => {
    expect(validateTarif({ title: "", price: "", type: "" }).errors).toEqual({
      title: M.MSG_FIELD_REQUIRED,
      price: M.MSG_FIELD_REQUIRED,
      type: M.MSG_FIELD_REQUIRED,
    });
    expect(validateTarif({ title: "Carte", price: "abc", type: "forfait" }).errors.price).toBe(M.MSG_PRICE_NUMBER);
    expect(validateTarif({ title: "Carte", price: "190,50", type: "forfait" })).toBeNull();
  });

  it("slider: JPEG, PNG, GIF only; image and alt text required", () => {
    expect(validateSlider({ image: null, alt_text: "" }).message).toBe(M.MSG_SLIDER_REQUIRED);
    const webp = new File(["x"], "a.webp", { type: "image/webp" });
    expect(validateSlider({ image: webp, alt_text: "Salle" }).message).toBe(M.MSG_SLIDER_TYPES);
    const png = new File(["x"], "a.png", { type: "image/png" });
    expect(validateSlider({ image: png, alt_text: "Salle" })).toBeNull();
    expect(validateSlider({ image: null, alt_text: "Salle" }, "edit")).toBeNull();
  });

  it("slideshow: image required, WebP accepted", () => {
    expect(validateSlideshow({ image: null }).message).toBe(M.MSG_SLIDESHOW_REQUIRED);
    expect(validateSlideshow({ image: new File(["x"], "a.webp", { type: "image/webp" }) })).toBeNull();
    expect(validateSlideshow({ image: new File(["x"], "a.svg", { type: "image/svg+xml" }) }).message).toBe(M.MSG_SLIDESHOW_TYPES);
  });

  it("media: title and a file or an URL; a video file sets the type", () => {
    expect(validateMedia({ title: "", file: null, external_url: "" }).message).toBe(M.MSG_MEDIA_REQUIRED);
    expect(validateMedia({ title: "Gala", file: null, external_url: "" }).message).toBe(M.MSG_MEDIA_REQUIRED);
    expect(validateMedia({ title: "Gala", file: null, external_url: "https://example.org/v" })).toBeNull();
    expect(mediaTypeFor(new File(["x"], "v.mp4", { type: "video/mp4" }), "photo")).toBe("video");
    expect(mediaTypeFor(null, "photo")).toBe("photo");
  });

  it("payment order: e-mail, order id, amount, title, date, time required", () => {
    const invalid = validateOrder({ email: "", order_id: "", amount: "", title: "", date: "", time: "" });
    expect(invalid.message).toBe(M.MSG_ORDER_REQUIRED);
    expect(Object.keys(invalid.errors).sort()).toEqual(["amount", "date", "email", "order_id", "time", "title"]);
  });
});

describe("pagination and sorting", () => {
  it("shows a window of 5 page numbers", () => {
    expect(pageWindow(1, 12)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(6, 12)).toEqual([4, 5, 6, 7, 8]);
    expect(pageWindow(12, 12)).toEqual([8, 9, 10, 11, 12]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
    expect(totalPages(21, 10)).toBe(3);
    expect(totalPages(0, 10)).toBe(1);
  });

  it("toggles ascending and descending", () => {
    expect(toggleOrdering("date", "date")).toBe("-date");
    expect(toggleOrdering("-date", "date")).toBe("date");
    expect(listQuery({ page: 2, pageSize: 10, ordering: "-date", search: "emma" })).toBe("?page=2&page_size=10&ordering=-date&search=emma");
  });

  it("reads paginated and plain lists", () => {
    expect(normaliseList({ count: 25, results: [{ id: 1 }] })).toEqual({ rows: [{ id: 1 }], count: 25, paginated: true });
    expect(normaliseList([{ id: 1 }])).toEqual({ rows: [{ id: 1 }], count: 1, paginated: false });
  });

  it("renders first, previous, the window, next and last", () => {
    const onPage = vi.fn();
    render(<Pagination page={6} count={120} pageSize={10} onPage={onPage} />);
    expect(screen.getAllByRole("button", { name: /^Page / }).map((b) => b.textContent)).toEqual(["4", "5", "6", "7", "8"]);
    expect(screen.getByRole("button", { name: "Page 6" }).getAttribute("aria-current")).toBe("page");
    fireEvent.click(screen.getByRole("button", { name: /Dernière/ }));
    expect(onPage).toHaveBeenCalledWith(12);
    fireEvent.click(screen.getByRole("button", { name: /Première/ }));
    expect(onPage).toHaveBeenCalledWith(1);
  });
});

describe("helpers", () => {
  it("formats the session date the French way", () => {
    expect(toApiDateTime("2026-03-01T18:30")).toBe("2026-03-01 18:30:00");
    expect(toInputDateTime("2026-03-01T18:30:00+01:00")).toBe("2026-03-01T18:30");
    expect(formatDateTime("2026-03-01T18:30:00+01:00")).toBe("01/03/2026 18:30");
  });

  it("reads the server's field errors", () => {
    expect(fieldErrors({ data: { errors: { price: ["Un nombre valide est requis."] } } })).toEqual({ price: "Un nombre valide est requis." });
    expect(fieldErrors({ data: null })).toEqual({});
  });

  it("maps the address to a section, the overview by default", () => {
    expect(sectionFromPath("/admin/dashboard")).toBe("overview");
    expect(sectionFromPath("/admin/sessions")).toBe("sessions");
    expect(sectionFromPath("/admin/nope")).toBe("overview");
    expect(SECTIONS[0]).toMatchObject({ key: "overview", label: "Vue d'ensemble" });
    expect(SECTIONS.map((s) => s.key)).toEqual(
      expect.arrayContaining(["users", "courses", "testimonials", "instructors", "contact-messages", "sessions", "slider", "tarifs", "media", "slideshow", "orders"])
    );
  });

  it("keeps the crop at most 1920 px wide", () => {
    expect(outputSize({ width: 3840, height: 2160 })).toEqual({ width: 1920, height: 1080 });
    expect(outputSize({ width: 1600, height: 900 })).toEqual({ width: 1600, height: 900 });
  });
});

describe("Dashboard", () => {
  it("switches sections through the address and follows the back button", async () => {
    globalThis.fetch = vi.fn(async () => new Response(JSON.stringify({ count: 0, results: [] }), { status: 200 }));
    window.history.replaceState({}, "", "/admin/dashboard");
    const { default: Dashboard } = await import("./Dashboard.jsx");
    render(<Dashboard user={{ id: 1, role: "supervisor" }} />);
    expect(await screen.findByRole("heading", { name: "Vue d'ensemble" })).toBeTruthy();
    fireEvent.click(screen.getByRole("link", { name: "Sessions" }));
    expect(window.location.pathname).toBe("/admin/sessions");
    expect(await screen.findByRole("heading", { name: "Sessions de cours" })).toBeTruthy();
    window.history.back();
    await waitFor(() => expect(window.location.pathname).toBe("/admin/dashboard"));
    expect(await screen.findByRole("heading", { name: "Vue d'ensemble" })).toBeTruthy();
  });
});
