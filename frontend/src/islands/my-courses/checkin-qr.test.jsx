import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { LABEL_CHECKIN_QR, MSG_CHECKIN_QR_HELP } from "./CheckinQr.jsx";

vi.mock("../../components/toast.jsx", () => ({ notify: vi.fn() }));
const { default: MyCoursesIsland } = await import("./MyCoursesIsland.jsx");

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const image = "data:image/svg+xml;charset=utf-8,%3Csvg%3E%3C%2Fsvg%3E";
const upcoming = { reservation_id: 11, course_id: 1, title: "Pole Exotic", date: "2031-03-10T18:30:00+01:00", participants: 1, status: "confirmed", status_label: "Confirmée", is_past: false, can_cancel: true, paid_with_pass: null, credits_spent: 0, checkin: { code: "11.4.sig", image } };
const held = { ...upcoming, reservation_id: 12, title: "Cerceau", status: "held", status_label: "En attente de paiement", checkin: null };

describe("my courses: the QR code for the door", () => {
  it("shows a confirmed booking's QR, folded, and none for an unpaid hold", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(JSON.stringify({ count: 2, next: null, previous: null, results: [upcoming, held] }), { status: 200 }));
    render(<MyCoursesIsland user={{ id: 3 }} listUrl="/api/course-feedback/user/3" />);
    const summaries = await screen.findAllByText(LABEL_CHECKIN_QR);
    expect(summaries).toHaveLength(1);
    fireEvent.click(summaries[0]);
    const qr = screen.getByAltText("Code QR de la réservation Pole Exotic");
    expect(qr.getAttribute("src")).toBe(image);
    expect(screen.getByText(MSG_CHECKIN_QR_HELP)).toBeTruthy();
    expect(screen.queryByAltText("Code QR de la réservation Cerceau")).toBeNull();
  });
});
