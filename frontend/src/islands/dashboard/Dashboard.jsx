/* The back office: a sidebar, the address selects the section, the back button works. */
import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { useApi } from "../../components/useApi.js";
import { SECTIONS, sectionFromPath, sectionPath } from "./sections.js";

// The section the address opens on starts downloading with the dashboard's own code (its page names its files
// beside the dashboard's scripts), not once the dashboard has rendered; the island mounts once it is there
// (`openingReady`, index.jsx), so that the first render shows it: a lazy component would first commit its
// "Chargement…" fallback, then render again. The others load on first visit.
const opening = sectionFromPath(window.location.pathname);
const openingSection = SECTIONS.find((s) => s.key === opening);
let openingModule = null;
export const openingReady = Promise.resolve(openingSection.load()).then(
  (module) => {
    openingModule = module;
  },
  () => {} // the lazy component below tries again and shows its failure
);
const components = {};
function componentFor(key) {
  if (key === opening && openingModule) return openingModule.default;
  if (!components[key]) components[key] = lazy(SECTIONS.find((s) => s.key === key).load);
  return components[key];
}
export const UNREAD_ENDPOINT = "/api/contact-messages/unread-count";

// Counted again on each section change; a failure shows no badge.
function useUnreadCount(section) {
  const { data } = useApi(UNREAD_ENDPOINT, { refreshKey: section });
  return Number((data && data.staff_count) || 0);
}

export default function Dashboard({ user = {}, djangoAdminUrl = "" }) {
  const [section, setSection] = useState(() => sectionFromPath(window.location.pathname));
  const unread = useUnreadCount(section);
  const current = SECTIONS.find((s) => s.key === section);
  const Section = componentFor(section);
  const viewer = useMemo(() => ({ ...user, isAdmin: user.role === "admin" }), [user]);

  useEffect(() => {
    const onPop = () => setSection(sectionFromPath(window.location.pathname));
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);

  useEffect(() => {
    document.title = document.title.replace(/^[^|]*\|/, `${current.label} – Tableau de bord |`);
  }, [current]);

  const go = (event, key) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (window.location.pathname !== sectionPath(key)) {
      window.history.pushState({ section: key }, "", sectionPath(key));
      setSection(key);
    }
  };

  return (
    <div className="dash">
      <nav className="dash-sidebar" aria-label="Rubriques du tableau de bord">
        <ul>
          {SECTIONS.map((s) => (
            <li key={s.key}>
              <a href={sectionPath(s.key)} aria-current={s.key === section ? "page" : undefined} onClick={(e) => go(e, s.key)}>
                {s.label}
                {s.key === "contact-messages" && unread > 0 && (
                  <span className="badge" aria-label={`${unread} non lu${unread > 1 ? "s" : ""}`}>
                    {unread}
                  </span>
                )}
              </a>
            </li>
          ))}
        </ul>
        {djangoAdminUrl && (
          <p className="dash-sidebar-foot">
            <a href={djangoAdminUrl}>Administration Django</a>
          </p>
        )}
      </nav>
      <div className="dash-main">
        <Suspense fallback={<p role="status">Chargement…</p>}>
          <Section key={section} user={viewer} />
        </Suspense>
      </div>
    </div>
  );
}
