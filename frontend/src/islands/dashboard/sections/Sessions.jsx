/* Course sessions: sorted by date on the server, 10 a page, and who is coming to each. A row holds the date, the
   course, the instructor, the seats and the status, and one "Actions" menu (participants, attendance, waiting list,
   cancel, edit, delete), so that ten rows fit a laptop's screen. */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { api } from "../../../components/api.js";
import { useApi } from "../../../components/useApi.js";
import Modal from "../../../components/Modal.jsx";
import { formatDateTime, toApiDateTime, toInputDateTime } from "../format.js";
import {
  MSG_COURSES_LOAD,
  MSG_CLASS_CANCELLED,
  MSG_DELETE,
  MSG_SAVE,
  MSG_SESSION_ADDED,
  MSG_SESSION_DELETED,
  MSG_SESSION_UPDATED,
  MSG_SESSIONS_LOAD,
} from "../messages.js";
import ResourceSection from "../ResourceSection.jsx";
import { AttendanceButton } from "./Attendance.jsx";
import { ClassCancelActions, sessionStatusLabel } from "./CancelClass.jsx";
import { SessionFilters, filterParams } from "./SessionFilters.jsx";
import { SeriesButton } from "./SessionSeries.jsx";
import { instructorField, instructorFormValue, instructorPayload, instructorsSource } from "./sessionInstructor.js";
import { WaitlistButton } from "./SessionWaitlist.jsx";
import { filtersShowing, focusQuery, listStateFromSearch, writeListStateToAddress } from "./sessionListState.js";
import { followingField, followingRefusal, submitToFollowing } from "./seriesFollowing.js";
import { PAGE_SIZE } from "../paging.js";
import { LEVEL_OPTIONS } from "../options.js";
import { SESSION_DEFAULT_PLACES, validateSession } from "../validation.js";

export const MSG_ATTENDEES_LOAD = "Erreur lors du chargement des participants.";
const STATUS_LABELS = { confirmed: "Payé", held: "En attente de paiement" };

function attendeesOf(row) {
  return Array.isArray(row.attendees) ? row.attendees : null;
}

export function AttendeesButton({ session }) {
  const [open, setOpen] = useState(false);
  // Fetched each time the dialog opens (unless the row already lists them); closing it aborts the request.
  const given = attendeesOf(session);
  const fetched = useApi(open && !given ? `/api/course-sessions/${session.id}/attendees` : null, { fallback: MSG_ATTENDEES_LOAD });
  const attendees = given ?? (fetched.data ? (Array.isArray(fetched.data) ? fetched.data : fetched.data.results || []) : null);
  const error = given ? "" : fetched.error;
  const booked = session.booked ?? session.seats_taken ?? (attendees ? attendees.reduce((n, a) => n + (a.participants || 1), 0) : null);
  const show = () => setOpen(true);
  const title = `Participants : ${session.course_title || ""} – ${formatDateTime(session.date)}`;
  return (
    <>
      <button type="button" className="button button-small button-secondary" onClick={show}>
        Participants{booked !== null && booked !== undefined ? ` (${booked}/${session.max_attendees})` : ""}
      </button>
      {open && (
        <Modal open title={title} onClose={() => setOpen(false)}>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          {!error && !attendees && <p>Chargement…</p>}
          {attendees && attendees.length === 0 && <p>Personne n'est encore inscrit.</p>}
          {attendees && attendees.length > 0 && (
            <div className="table-wrap">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Nom</th>
                    <th scope="col">E-mail</th>
                    <th scope="col">Participants</th>
                    <th scope="col">Statut</th>
                  </tr>
                </thead>
                <tbody>
                  {attendees.map((a) => (
                    <tr key={a.id ?? a.email}>
                      <td>{a.name || `${a.first_name || ""} ${a.last_name || ""}`.trim()}</td>
                      <td>{a.email}</td>
                      <td>{a.participants}</td>
                      <td>{a.paid ? STATUS_LABELS.confirmed : a.status_label || STATUS_LABELS[a.status] || a.status}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Modal>
      )}
    </>
  );
}

const courseTitle = (row, ctx) =>
  row.course_title || (ctx.options.courses || []).find((c) => String(c.value) === String(row.course_id))?.label || "";

/** The course, and its level when the session has one: "Pole Flow · Débutant". */
function courseCell(row, ctx) {
  const title = courseTitle(row, ctx);
  return row.level ? `${title} · ${row.level}` : title;
}

/** "3 / 10", and who waits for a seat: "10 / 10 · 2 en attente". */
export function seatsText(row) {
  const taken = row.seats_taken ?? row.booked ?? (row.max_attendees ?? 0) - (row.seats_left ?? row.max_attendees ?? 0);
  const waiting = row.waitlist_count > 0 ? ` · ${row.waitlist_count} en attente` : "";
  return `${taken} / ${row.max_attendees ?? "—"}${waiting}`;
}

export const sessionsConfig = {
  key: "sessions",
  title: "Sessions de cours",
  noun: "une session",
  endpoint: "/api/course-sessions",
  listParams: () => ({ view: "staff" }),
  itemPath: (row) => `/api/course-sessions/${row.id}`,
  label: (row) => `${row.course_title || "Session"} du ${formatDateTime(row.date)}`,
  serverPaged: true,
  defaultOrdering: "date",
  options: {
    courses: { endpoint: "/api/courses", error: MSG_COURSES_LOAD, map: (rows) => rows.map((c) => ({ value: String(c.id), label: c.title })) },
    instructors: instructorsSource,
  },
  columns: [
    { key: "date", label: "Date", sort: "date", render: (row) => formatDateTime(row.date) },
    { key: "course", label: "Cours", className: "dash-wrap", render: courseCell },
    { key: "instructor", label: "Professeur", className: "dash-wrap", render: (row) => row.instructor || "—" },
    { key: "seats", label: "Places", render: seatsText },
    { key: "status", label: "Statut", render: sessionStatusLabel },
  ],
  extra: (ctx) => <SeriesButton ctx={ctx} />,
  actionsMenu: true,
  rowActions: (row, ctx, closeMenu) => (
    <>
      <AttendeesButton session={row} />
      <AttendanceButton session={row} />
      <WaitlistButton session={row} />
      <ClassCancelActions
        session={row}
        onDone={(message) => {
          // The row's menu closes (its "Annuler le cours" is gone) and the outcome is said in the section.
          closeMenu?.();
          ctx.notify(message || MSG_CLASS_CANCELLED);
          ctx.reload();
        }}
      />
    </>
  ),
  fields: ({ options, mode, row }) => [
    { name: "course_id", label: "Cours", type: "select", required: true, options: options.courses || [] },
    { name: "date", label: "Date et heure", type: "datetime-local", required: true },
    instructorField(options, row),
    { name: "level", label: "Niveau (facultatif)", type: "select", options: LEVEL_OPTIONS },
    { name: "max_attendees", label: "Places", type: "number", min: 1, step: 1, required: true },
    { name: "details", label: "Détails", type: "textarea" },
    followingField(mode, row),
  ].filter(Boolean),
  emptyValues: () => ({ course_id: "", date: "", instructor_id: "", level: "", max_attendees: String(SESSION_DEFAULT_PLACES), details: "" }),
  toForm: (row) => ({
    course_id: String(row.course_id ?? ""),
    date: toInputDateTime(row.date),
    instructor_id: instructorFormValue(row),
    level: row.level || "",
    max_attendees: String(row.max_attendees ?? SESSION_DEFAULT_PLACES),
    details: row.details || "",
    // "This and the following" keeps each session's day and course (seriesFollowing.js).
    following: false,
    original_date: toInputDateTime(row.date),
    original_course_id: String(row.course_id ?? ""),
  }),
  toPayload: (values) => ({
    course_id: Number(values.course_id),
    date: toApiDateTime(values.date),
    instructor_id: instructorPayload(values),
    level: values.level,
    max_attendees: Number(values.max_attendees || SESSION_DEFAULT_PLACES),
    details: values.details,
  }),
  validate: (values, mode, ctx) => followingRefusal(values) || validateSession(values, mode, ctx),
  submitTo: submitToFollowing,
  savedMessage: (saved) => (saved && saved.count !== undefined && saved.message) || "",
  messages: {
    load: MSG_SESSIONS_LOAD,
    save: MSG_SAVE,
    delete: MSG_DELETE,
    added: MSG_SESSION_ADDED,
    updated: MSG_SESSION_UPDATED,
    deleted: MSG_SESSION_DELETED,
  },
};

function useCourseOptions() {
  const fetched = useApi("/api/courses", { fallback: MSG_COURSES_LOAD });
  const { data } = fetched;
  return useMemo(() => (Array.isArray(data) ? data : data?.results || []).map((c) => ({ value: String(c.id), label: c.title })), [data]);
}

export const MSG_FILTERS_CHANGED_FOR_SAVED = "Les filtres ont changé pour montrer la session enregistrée.";

/** The staff list's state (filters, page, sort), kept in the address (sessionListState.js). */
function useSessionListState() {
  const [state, setState] = useState(() => listStateFromSearch());
  useEffect(() => writeListStateToAddress(state), [state]);
  const setters = useMemo(() => {
    const update = (key) => (value) =>
      setState((current) => ({ ...current, [key]: typeof value === "function" ? value(current[key]) : value }));
    return { setPage: update("page"), setOrdering: update("ordering") };
  }, []);
  return [state, setState, setters];
}

export default function Sessions(props) {
  // Opens on upcoming sessions; filters, sort and page are in the address; a saved session is shown.
  const [state, setState, setters] = useSessionListState();
  const [saved, setSaved] = useState(null); // {id, notice}
  const courses = useCourseOptions();
  const { filters, page, ordering } = state;

  const onSaved = useCallback(
    async (answer, { row }) => {
      const session = { ...(row || {}), ...(answer || {}) };
      if (!session.id) return;
      const next = filtersShowing(filters, session);
      const changed = JSON.stringify(next) !== JSON.stringify(filters);
      let target = page;
      try {
        const found = await api(`/api/course-sessions${focusQuery({ filters: next, ordering, pageSize: PAGE_SIZE, id: session.id })}`);
        target = found.page || 1;
      } catch {
        target = changed ? 1 : page;
      }
      setState((current) => ({ ...current, filters: next, page: target }));
      setSaved({ id: session.id, date: session.date, notice: changed ? MSG_FILTERS_CHANGED_FOR_SAVED : "" });
    },
    [filters, page, ordering, setState]
  );

  // The list keeps showing the page it had until the saved session's page arrives, and that page may still hold
  // the session as it was (a session moved to another date): only its row as saved is highlighted and scrolled to,
  // else the scroll lands on the old row and the new one shows up out of view.
  const isSaved = useCallback((row) => Boolean(saved) && row.id === saved.id && (!saved.date || row.date === saved.date), [saved]);
  // When the saved session's row appears, bring it into view (once per save).
  const scrolled = useRef(null);
  const showSaved = useCallback(
    (node) => {
      if (!node || !saved || scrolled.current === saved) return;
      scrolled.current = saved;
      const row = node.closest("tr");
      if (row && typeof row.scrollIntoView === "function") row.scrollIntoView({ block: "center" });
    },
    [saved]
  );

  const changeFilters = useCallback(
    (next) => {
      setSaved(null);
      setState((current) => ({ ...current, filters: next, page: 1 }));
    },
    [setState]
  );

  const config = useMemo(
    () => ({
      ...sessionsConfig,
      listParams: () => ({ view: "staff", ...filterParams(filters) }),
      listState: { page, ordering, ...setters },
      toolbar: () => (
        <>
          <SessionFilters key={JSON.stringify(filters)} filters={filters} courses={courses} onChange={changeFilters} />
          {saved?.notice && (
            <p className="help" role="status">
              {saved.notice}
            </p>
          )}
        </>
      ),
      onSaved,
      rowClass: (row) => (isSaved(row) ? "dash-row-saved" : ""),
      columns: sessionsConfig.columns.map((column) =>
        column.key === "date"
          ? {
              ...column,
              render: (row) => (
                <>
                  {formatDateTime(row.date)}
                  {isSaved(row) && (
                    <span ref={showSaved} className="badge dash-saved-badge">
                      Enregistrée
                    </span>
                  )}
                </>
              ),
            }
          : column
      ),
    }),
    [filters, page, ordering, setters, onSaved, isSaved, showSaved, courses, saved, changeFilters]
  );

  return <ResourceSection config={config} {...props} />;
}
