/* The staff session list keeps filters, sort and page in the address, opens on upcoming sessions, shows the
   session just saved (its page, highlighted), and edits a session of a series "and the following". */
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import Sessions, { MSG_FILTERS_CHANGED_FOR_SAVED } from "./Sessions.jsx";
import { filtersHold, filtersShowing, focusQuery, listStateFromSearch, listStateSearch } from "./sessionListState.js";
import { FOLLOWING_LABEL, MSG_FOLLOWING_SAME_DAY, followingBody, submitToFollowing } from "./seriesFollowing.js";

const json = (body, status = 200) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
const NOW = new Date("2030-01-10T12:00:00+01:00");

function row(id, date, extra = {}) {
  return {
    id,
    course_id: 3,
    course_title: "Pole Flow",
    title: "Pole Flow",
    date,
    end_date: date.replace("18:30", "19:30"),
    instructor: "Inès Robert",
    instructor_id: 7,
    level: "",
    details: "",
    max_attendees: 10,
    seats_left: 10,
    seats_taken: 0,
    status: "scheduled",
    is_past: false,
    waitlist_count: 0,
    series_id: null,
    ...extra,
  };
}

let calls;
function server(handler) {
  calls = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((url, options = {}) => {
      const method = options.method || "GET";
      calls.push({ url: String(url), method, body: options.body ? JSON.parse(options.body) : null });
      return handler(String(url), method, options.body ? JSON.parse(options.body) : null);
    })
  );
}
// Each row keeps its (closed) waiting-list dialog mounted: the one the test works in is the open one.
const openDialog = () => document.querySelector("dialog[open]");
const listCalls = () => calls.filter((c) => c.method === "GET" && c.url.startsWith("/api/course-sessions?"));
const paramsOf = (call) => Object.fromEntries(new URL(call.url, "http://x").searchParams);
// A row's actions are in its "Actions" menu: open the index-th row's menu, choose the item.
function chooseAction(index, name) {
  fireEvent.click(screen.getAllByRole("button", { name: /^Actions/ })[index]);
  fireEvent.click(screen.getByRole("menuitem", { name }));
}

beforeEach(() => {
  document.cookie = "csrftoken=jeton";
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, "", "/");
});

describe("the list's state in the address", () => {
  it("reads and writes filters, sort and page, with the defaults left out", () => {
    expect(listStateFromSearch("")).toEqual({ filters: { when: "upcoming" }, page: 1, ordering: "date" });
    expect(listStateFromSearch("?when=past&course_id=3&ordering=-date&page=4")).toEqual({
      filters: { when: "past", course_id: "3" },
      page: 4,
      ordering: "-date",
    });
    expect(listStateFromSearch("?page=zero&ordering=price")).toEqual({ filters: { when: "upcoming" }, page: 1, ordering: "date" });
    expect(listStateSearch({ filters: { when: "upcoming" }, page: 1, ordering: "date" })).toBe("?when=upcoming");
    expect(listStateSearch({ filters: { when: "", search: "flow" }, page: 3, ordering: "-date" })).toBe("?when=&search=flow&ordering=-date&page=3");
  });

  it("knows whether the filters hold a saved session, and which filters would", () => {
    const future = row(5, "2030-01-14T18:30:00+01:00");
    const past = row(6, "2030-01-03T18:30:00+01:00");
    expect(filtersHold({ when: "upcoming" }, future, NOW)).toBe(true);
    expect(filtersHold({ when: "upcoming", course_id: "4" }, future, NOW)).toBe(false);
    expect(filtersHold({ when: "upcoming", search: "flow" }, future, NOW)).toBe(true);
    expect(filtersHold({ when: "upcoming", instructor: "camille" }, future, NOW)).toBe(false);
    expect(filtersHold({ when: "upcoming" }, past, NOW)).toBe(false);
    expect(filtersShowing({ when: "upcoming" }, past, NOW)).toEqual({ when: "past" });
    expect(filtersShowing({ when: "past", course_id: "9" }, future, NOW)).toEqual({ when: "upcoming" });
    expect(filtersShowing({ when: "", course_id: "3" }, past, NOW)).toEqual({ when: "", course_id: "3" });
    expect(focusQuery({ filters: { when: "upcoming" }, ordering: "date", pageSize: 10, id: 5 })).toBe(
      "?view=staff&when=upcoming&ordering=date&page_size=10&focus=5"
    );
  });
});

describe("the sessions section", () => {
  it("opens on upcoming sessions, page 1 by date, and keeps a sort and page change in the address", async () => {
    window.history.replaceState(null, "", "/admin/sessions");
    const rows = Array.from({ length: 10 }, (_, i) => row(i + 1, `2030-01-${String(11 + i).padStart(2, "0")}T18:30:00+01:00`));
    server((url) => (url.startsWith("/api/course-sessions?") ? json({ count: 25, next: null, previous: null, page: 1, results: rows }) : json([])));
    render(<Sessions user={{ role: "admin" }} />);
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(0));
    expect(paramsOf(listCalls()[0])).toMatchObject({ view: "staff", when: "upcoming", page: "1", ordering: "date" });
    expect(window.location.search).toBe("?when=upcoming");
    fireEvent.click(await screen.findByRole("button", { name: "Page 2" }));
    await waitFor(() => expect(window.location.search).toBe("?when=upcoming&page=2"));
    await waitFor(() => expect(paramsOf(listCalls().at(-1))).toMatchObject({ page: "2" }));
    fireEvent.click(screen.getByRole("button", { name: /^Date/ }));
    await waitFor(() => expect(window.location.search).toBe("?when=upcoming&ordering=-date"));
    await waitFor(() => expect(paramsOf(listCalls().at(-1))).toMatchObject({ page: "1", ordering: "-date" }));
  });

  it("comes back on the filters, sort and page of the address (reload, back button)", async () => {
    window.history.replaceState(null, "", "/admin/sessions?when=past&course_id=3&ordering=-date&page=3");
    server((url) => (url.startsWith("/api/course-sessions?") ? json({ count: 40, next: null, previous: null, page: 3, results: [] }) : json([])));
    render(<Sessions user={{ role: "admin" }} />);
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(0));
    expect(paramsOf(listCalls()[0])).toMatchObject({ when: "past", course_id: "3", ordering: "-date", page: "3" });
    expect(screen.getByLabelText("Période").value).toBe("past");
    expect(window.location.search).toBe("?when=past&course_id=3&ordering=-date&page=3");
    // A filter change starts again on page 1.
    fireEvent.change(screen.getByLabelText("Période"), { target: { value: "cancelled" } });
    await waitFor(() => expect(window.location.search).toBe("?when=cancelled&course_id=3&ordering=-date"));
  });

  it("after saving a new session, shows its page with the session highlighted", async () => {
    window.history.replaceState(null, "", "/admin/sessions?when=upcoming&course_id=4");
    const created = row(42, "2030-03-02T18:30:00+01:00");
    const pageThree = [row(40, "2030-02-28T18:30:00+01:00"), created];
    server((url, method) => {
      if (method === "POST") return json({ ...created, message: "Session ajoutée." }, 201);
      if (url.startsWith("/api/course-sessions?")) {
        const params = new URL(url, "http://x").searchParams;
        if (params.get("focus")) return json({ count: 22, next: null, previous: null, page: 3, results: pageThree });
        if (params.get("page") === "3") return json({ count: 22, next: null, previous: null, page: 3, results: pageThree });
        return json({ count: 22, next: null, previous: null, page: 1, results: [row(1, "2030-01-11T18:30:00+01:00")] });
      }
      if (url.startsWith("/api/courses")) return json([{ id: 3, title: "Pole Flow" }, { id: 4, title: "Cerceau" }]);
      if (url.startsWith("/api/instructors")) return json([{ id: 7, name: "Inès Robert", active: true }]);
      return json([]);
    });
    render(<Sessions user={{ role: "admin" }} />);
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(0));
    // The save goes through the real form.
    fireEvent.click(screen.getByRole("button", { name: "Ajouter une session" }));
    const dialog = openDialog();
    await waitFor(() => expect(within(dialog).getByLabelText(/Cours/).options.length).toBeGreaterThan(1));
    fireEvent.change(within(dialog).getByLabelText(/Cours/), { target: { value: "3" } });
    fireEvent.change(within(dialog).getByLabelText(/Date et heure/), { target: { value: "2030-03-02T18:30" } });
    const teacher = within(dialog).getByLabelText(/Professeur/);
    if (teacher.tagName === "SELECT") {
      await waitFor(() => expect(teacher.options.length).toBeGreaterThan(1));
      fireEvent.change(teacher, { target: { value: "7" } });
    } else {
      fireEvent.change(teacher, { target: { value: "Inès Robert" } });
    }
    fireEvent.click(within(dialog).getByRole("button", { name: "Enregistrer" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    // The course filter (Cerceau) does not hold it: the filters change to show it, on its page, highlighted.
    await waitFor(() => expect(window.location.search).toBe("?when=upcoming&page=3"));
    const focus = listCalls().find((c) => paramsOf(c).focus);
    expect(paramsOf(focus)).toMatchObject({ focus: "42", when: "upcoming", ordering: "date", page_size: "10" });
    expect(paramsOf(focus).course_id).toBeUndefined();
    await waitFor(() => expect(screen.getByText("Enregistrée")).toBeTruthy());
    expect(screen.getByText("Enregistrée").closest("tr").className).toBe("dash-row-saved");
    expect(screen.getByText(MSG_FILTERS_CHANGED_FOR_SAVED)).toBeTruthy();
    expect(MSG_FILTERS_CHANGED_FOR_SAVED).toBe("Les filtres ont changé pour montrer la session enregistrée.");
  });

  it("brings the saved session into view only once its new page is shown, not on the row it left", async () => {
    window.history.replaceState(null, "", "/admin/sessions?when=upcoming");
    const before = row(1, "2030-01-11T18:30:00+01:00");
    const after = row(1, "2030-02-20T18:30:00+01:00");
    const pageOne = [before, row(2, "2030-01-12T18:30:00+01:00")];
    const pageThree = [row(20, "2030-02-19T18:30:00+01:00"), after];
    let releasePageThree;
    const pageThreeHeld = new Promise((resolve) => {
      releasePageThree = resolve;
    });
    server((url, method) => {
      if (method === "PUT" || method === "PATCH") return json({ ...after, message: "Session modifiée avec succès !" });
      if (url.startsWith("/api/course-sessions?")) {
        const params = new URL(url, "http://x").searchParams;
        if (params.get("focus")) return json({ count: 22, next: null, previous: null, page: 3, results: pageThree });
        // The third page answers late: meanwhile the list still shows the first, with the class at its old date.
        if (params.get("page") === "3") return pageThreeHeld.then(() => json({ count: 22, next: null, previous: null, page: 3, results: pageThree }));
        return json({ count: 22, next: "?page=2", previous: null, page: 1, results: pageOne });
      }
      if (url.startsWith("/api/courses")) return json([{ id: 3, title: "Pole Flow" }]);
      if (url.startsWith("/api/instructors")) return json([{ id: 7, name: "Inès Robert", active: true }]);
      return json([]);
    });
    const scrolled = [];
    const scrollIntoView = vi.fn(function track() {
      scrolled.push(this.textContent);
    });
    Element.prototype.scrollIntoView = scrollIntoView;
    try {
      render(<Sessions user={{ role: "admin" }} />);
      await waitFor(() => expect(screen.getAllByRole("button", { name: /^Actions/ }).length).toBe(2));
      chooseAction(0, /^Modifier/);
      const dialog = openDialog();
      fireEvent.change(within(dialog).getByLabelText(/Date et heure/), { target: { value: "2030-02-20T18:30" } });
      fireEvent.click(within(dialog).getByRole("button", { name: "Enregistrer" }));
      await waitFor(() => expect(window.location.search).toBe("?when=upcoming&page=3"));
      // Page 1 is still on screen with the session's old date: nothing is highlighted or scrolled to there.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(screen.queryByText("Enregistrée")).toBeNull();
      expect(scrolled.filter((text) => text.includes("11/01/2030"))).toEqual([]);
      releasePageThree();
      await waitFor(() => expect(screen.getByText("Enregistrée")).toBeTruthy());
      const saved = screen.getByText("Enregistrée").closest("tr");
      expect(saved.textContent).toContain("20/02/2030");
      await waitFor(() => expect(scrolled.some((text) => text.includes("20/02/2030"))).toBe(true));
    } finally {
      delete Element.prototype.scrollIntoView;
    }
  });
});

describe("Modifier ce cours et les suivants", () => {
  it("is offered when editing a session of a series, and sends this and the following to the series endpoint", async () => {
    window.history.replaceState(null, "", "/admin/sessions");
    const inSeries = row(12, "2030-01-14T18:30:00+01:00", { series_id: 5, max_attendees: 10 });
    const alone = row(13, "2030-01-15T18:30:00+01:00");
    server((url, method) => {
      if (method === "PUT" && url.endsWith("/following")) return json({ count: 6, message: "6 séance(s) modifiée(s) : celle-ci et les suivantes de la série." });
      if (url.startsWith("/api/course-sessions?")) return json({ count: 2, next: null, previous: null, page: 1, results: [inSeries, alone] });
      if (url.startsWith("/api/courses")) return json([{ id: 3, title: "Pole Flow" }]);
      if (url.startsWith("/api/instructors")) return json([{ id: 7, name: "Inès Robert", active: true }]);
      return json([]);
    });
    render(<Sessions user={{ role: "admin" }} />);
    await screen.findAllByRole("button", { name: /^Actions/ });
    // A session alone: no such choice.
    chooseAction(1, /^Modifier/);
    expect(screen.queryByLabelText(FOLLOWING_LABEL)).toBeNull();
    fireEvent.click(within(openDialog()).getByRole("button", { name: "Annuler" }));
    // A session of a series: the choice, refused when the day moves, then sent to PUT .../following.
    chooseAction(0, /^Modifier/);
    const dialog = openDialog();
    const box = within(dialog).getByLabelText(FOLLOWING_LABEL);
    fireEvent.click(box);
    fireEvent.change(within(dialog).getByLabelText(/Date et heure/), { target: { value: "2030-01-15T19:00" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Enregistrer" }));
    await waitFor(() => expect(within(dialog).getByRole("alert").textContent).toBe(MSG_FOLLOWING_SAME_DAY));
    expect(calls.some((c) => c.method === "PUT")).toBe(false);
    fireEvent.change(within(dialog).getByLabelText(/Date et heure/), { target: { value: "2030-01-14T19:00" } });
    fireEvent.change(within(dialog).getByLabelText(/Places/), { target: { value: "12" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Enregistrer" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    const put = calls.find((c) => c.method === "PUT");
    expect(put.url).toBe("/api/course-sessions/12/following");
    expect(put.body).toMatchObject({ time: "19:00", max_attendees: 12, level: "", details: "" });
    expect(put.body.instructor_id ?? put.body.instructor).toBeTruthy();
    await waitFor(() => expect(screen.getByText("6 séance(s) modifiée(s) : celle-ci et les suivantes de la série.")).toBeTruthy());
  });

  it("builds the series body from the one-session payload", () => {
    expect(followingBody({ course_id: 3, date: "2030-01-14 19:00:00", instructor_id: 7, level: "debutant", max_attendees: 8, details: "Tapis" })).toEqual({
      time: "19:00",
      instructor_id: 7,
      level: "debutant",
      max_attendees: 8,
      details: "Tapis",
    });
    expect(submitToFollowing({ values: { following: false }, mode: "edit", row: { id: 1, series_id: 2 }, body: {} })).toBeNull();
    expect(submitToFollowing({ values: { following: true }, mode: "edit", row: { id: 1, series_id: 2 }, body: { date: "2030-01-14 19:00:00" } }).path).toBe(
      "/api/course-sessions/1/following"
    );
  });
});
