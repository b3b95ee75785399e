import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

// qr-scanner stands in for the camera: the test calls the decode callback the sheet gave it.
const camera = { onDecode: null, start: vi.fn(async () => {}), destroyed: 0 };
vi.mock("qr-scanner", () => ({
  default: class {
    constructor(video, onDecode) {
      camera.onDecode = onDecode;
    }
    start() {
      return camera.start();
    }
    destroy() {
      camera.destroyed += 1;
    }
  },
}));
const { AttendanceSheet } = await import("./Attendance.jsx");
const { LABEL_SCAN, LABEL_SCAN_STOP, MSG_CAMERA_UNAVAILABLE, wholePicture } = await import("./QrCheckin.jsx");

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  camera.start.mockImplementation(async () => {});
});

const json = (status, body) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
const LINE = { reservation_id: 5, user_id: 9, first_name: "Emma", last_name: "Petit", email: "emma@example.fr", participants: 1, payment: "Carte bancaire", attendance: null, walk_in: false, no_shows: 0 };
const SHEET = { session: { id: 3, attendance_open: true }, counts: { booked: 1, present: 0, absent: 0, unmarked: 1 }, results: [LINE] };
const PRESENT = { ...SHEET, counts: { booked: 1, present: 1, absent: 0, unmarked: 0 }, results: [{ ...LINE, attendance: "present" }], message: "Emma Petit est pointé(e) présent(e)." };
const OTHER_CLASS = "Ce code QR est celui d'une réservation pour un autre cours : il n'est pas valable ici.";

describe("attendance sheet: scanning QR codes", () => {
  it("sends a scanned code once, marks the member present, and shows a refusal in French", async () => {
    const fetchMock = vi.fn((url, options) => {
      if (options?.method !== "POST") return json(200, SHEET);
      return JSON.parse(options.body).code === "5.3.sig" ? json(200, PRESENT) : json(409, { error: OTHER_CLASS });
    });
    vi.stubGlobal("fetch", fetchMock);
    render(<AttendanceSheet sessionId={3} />);
    fireEvent.click(await screen.findByRole("button", { name: LABEL_SCAN }));
    await waitFor(() => expect(camera.start).toHaveBeenCalled());

    camera.onDecode({ data: "5.3.sig" });
    camera.onDecode({ data: "5.3.sig" }); // still in front of the camera: not sent again
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(PRESENT.message));
    expect(screen.getByRole("button", { name: "Présent" }).getAttribute("aria-pressed")).toBe("true");
    const posts = fetchMock.mock.calls.filter(([, options]) => options?.method === "POST");
    expect(posts).toHaveLength(1);
    expect(posts[0][0]).toBe("/api/course-sessions/3/check-in");
    expect(JSON.parse(posts[0][1].body)).toEqual({ code: "5.3.sig" });

    camera.onDecode({ data: "8.4.sig" });
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe(OTHER_CLASS));

    fireEvent.click(screen.getByRole("button", { name: LABEL_SCAN_STOP }));
    expect(camera.destroyed).toBeGreaterThan(0);
    expect(screen.getByRole("button", { name: LABEL_SCAN })).toBeTruthy();
  });

  it("says in French when the camera cannot be opened", async () => {
    camera.start.mockImplementation(async () => {
      throw new Error("Camera not found.");
    });
    vi.stubGlobal("fetch", vi.fn(() => json(200, SHEET)));
    vi.spyOn(console, "error").mockImplementation(() => {});
    render(<AttendanceSheet sessionId={3} />);
    fireEvent.click(await screen.findByRole("button", { name: LABEL_SCAN }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe(MSG_CAMERA_UNAVAILABLE));
  });
});

describe("the part of the camera's picture that is read", () => {
  it("is the whole picture, scaled down to at most 800 px wide", () => {
    expect(wholePicture({ videoWidth: 640, videoHeight: 480 })).toEqual({ x: 0, y: 0, width: 640, height: 480, downScaledWidth: 640, downScaledHeight: 480 });
    expect(wholePicture({ videoWidth: 1920, videoHeight: 1080 })).toEqual({ x: 0, y: 0, width: 1920, height: 1080, downScaledWidth: 800, downScaledHeight: 450 });
  });
});
