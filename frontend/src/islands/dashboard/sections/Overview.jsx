/* "Vue d'ensemble": the studio's numbers for a period beside the previous period of the same length:
   money, classes, members, and the next 7 days. Every figure links to the list behind it; every chart has its
   data as a table behind "Voir les données". Chart.js loads only here, in its own chunk (overview/chartjs.js). */
import { useMemo, useState } from "react";
import { formatShortDate, formatTime } from "../../../components/format.js";
import { useApi } from "../../../components/useApi.js";
import { ChartFigure, DataTable } from "./overview/ChartFigure.jsx";
import { Figure } from "./overview/Figure.jsx";
import { FigureLink } from "./overview/FigureLink.jsx";
import { Heatmap } from "./overview/Heatmap.jsx";
import { bucketLabel, formatCount, formatDay, formatEuros, formatPercent, plural } from "./overview/numbers.js";
import { PERIODS, dayCount, periodFromSearch, periodRange, parisToday, previousRange, statsUrl, writePeriodToAddress } from "./overview/period.js";
import "./overview/overview.css";

export const MSG_OVERVIEW_LOAD = "Erreur lors du chargement des chiffres du studio.";
export const MSG_CUSTOM_RANGE = "Choisissez une date de début et une date de fin (la fin le jour du début ou après).";
export const BAND_LABELS = { "0-24": "moins de 25 %", "25-49": "25 à 49 %", "50-74": "50 à 74 %", "75-99": "75 à 99 %", 100: "complet" };

export const LINKS = {
  orders: "/admin/orders",
  passes: "/admin/passes",
  subscriptions: "/admin/subscriptions",
  unpaid: "/admin/subscriptions?filter=unpaid",
  ending: "/admin/subscriptions?filter=ending",
  past: "/admin/sessions?when=past",
  full: "/admin/sessions?when=full",
  cancelled: "/admin/sessions?when=cancelled",
  upcoming: "/admin/sessions?when=upcoming",
  users: "/admin/users",
};

function PeriodPicker({ choice, today, onChange }) {
  const [draft, setDraft] = useState({ from: choice.from, to: choice.to });
  const [custom, setCustom] = useState(choice.period === "custom");
  const [error, setError] = useState("");
  const pick = (event) => {
    const period = event.target.value;
    setError("");
    if (period === "custom") {
      setCustom(true);
      setDraft({ from: choice.from, to: choice.to });
      return;
    }
    setCustom(false);
    onChange({ period, ...periodRange(period, today) });
  };
  const submit = (event) => {
    event.preventDefault();
    if (!draft.from || !draft.to || draft.to < draft.from) {
      setError(MSG_CUSTOM_RANGE);
      return;
    }
    setError("");
    onChange({ period: "custom", from: draft.from, to: draft.to });
  };
  return (
    <form className="ov-period" onSubmit={submit} aria-label="Période affichée" noValidate>
      <label htmlFor="ov-period">Période</label>
      <select id="ov-period" value={custom ? "custom" : choice.period} onChange={pick}>
        {PERIODS.map((p) => (
          <option key={p.value} value={p.value}>
            {p.label}
          </option>
        ))}
      </select>
      {custom && (
        <>
          <label htmlFor="ov-from">Du</label>
          <input id="ov-from" type="date" value={draft.from} max={draft.to || undefined} onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))} />
          <label htmlFor="ov-to">Au</label>
          <input id="ov-to" type="date" value={draft.to} min={draft.from || undefined} onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))} />
          <button type="submit" className="button button-small">
            Afficher
          </button>
        </>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

const euroNumber = (value) => Number(value);
const percentNumber = (value) => Math.round(Number(value || 0) * 1000) / 10;
const percentTick = (value) => `${formatCount(value)} %`;

function Money({ money }) {
  const labels = useMemo(() => money.series.map((b) => bucketLabel(b.start, money.bucket)), [money]);
  const datasets = useMemo(
    () => [
      { label: "Encaissé", data: money.series.map((b) => euroNumber(b.money_in)) },
      { label: "Remboursé", data: money.series.map((b) => euroNumber(b.refunds)), color: "#e0a800" },
    ],
    [money],
  );
  const total = (key) => ({ current: money[key].current, previousValue: money[key].previous, previous: formatEuros(money[key].previous) });
  const count = (key) => ({
    current: money[key].current_count,
    previousValue: money[key].previous_count,
    previous: formatCount(money[key].previous_count),
  });
  return (
    <section className="ov-block" aria-labelledby="ov-money">
      <h3 id="ov-money">Argent</h3>
      <ul className="ov-figures">
        <Figure label="Encaissé" value={formatEuros(money.money_in.current)} {...total("money_in")} href={LINKS.orders} linkText="Voir les commandes" note={plural(money.money_in.current_count, "paiement ou échéance", "paiements et échéances")} />
        <Figure label="Remboursé" value={formatEuros(money.refunds.current)} {...total("refunds")} href={LINKS.orders} linkText="Voir les commandes" good="down" note={plural(money.refunds.current_count, "remboursement", "remboursements")} />
        <Figure label="Cartes de cours vendues" value={formatCount(money.cards_sold.current_count)} {...count("cards_sold")} href={LINKS.passes} linkText="Voir les cartes et abonnements" note={formatEuros(money.cards_sold.current)} />
        <Figure label="Abonnements vendus" value={formatCount(money.subscriptions_sold.current_count)} {...count("subscriptions_sold")} href={LINKS.subscriptions} linkText="Voir les abonnements" note={formatEuros(money.subscriptions_sold.current)} />
        <Figure label="Échéances impayées" value={formatEuros(money.unpaid.current)} {...total("unpaid")} href={LINKS.unpaid} linkText="Voir les abonnements impayés" good="down" note={plural(money.unpaid.current_count, "échéance due non payée", "échéances dues non payées")} />
        <Figure
          label="Recette nette par cours"
          value={formatEuros(money.revenue_per_class.current)}
          current={money.revenue_per_class.current ?? 0}
          previousValue={money.revenue_per_class.previous ?? 0}
          previous={formatEuros(money.revenue_per_class.previous)}
          href={LINKS.past}
          linkText="Voir les cours passés"
          note={plural(money.classes_held.current, "cours donné", "cours donnés")}
        />
      </ul>
      <ChartFigure
        title={money.bucket === "week" ? "Encaissé et remboursé par semaine" : "Encaissé et remboursé par mois"}
        summary={`${formatEuros(money.money_in.current)} encaissés et ${formatEuros(money.refunds.current)} remboursés sur la période.`}
        labels={labels}
        datasets={datasets}
        format={formatEuros}
        table={{
          columns: [
            { key: "bucket", label: money.bucket === "week" ? "Semaine" : "Mois" },
            { key: "in", label: "Encaissé" },
            { key: "out", label: "Remboursé" },
          ],
          rows: money.series.map((b, i) => ({ key: b.start, bucket: labels[i], in: formatEuros(b.money_in), out: formatEuros(b.refunds) })),
        }}
      />
    </section>
  );
}

function Classes({ classes }) {
  const courseLabels = useMemo(() => classes.courses.map((c) => c.title), [classes]);
  const courseData = useMemo(() => [{ label: "Remplissage", data: classes.courses.map((c) => percentNumber(c.fill_rate)) }], [classes]);
  const bandLabels = useMemo(() => classes.fill_bands.map((b) => BAND_LABELS[b.band]), [classes]);
  const bandData = useMemo(() => [{ label: "Séances", data: classes.fill_bands.map((b) => b.sessions) }], [classes]);
  const pair = (key) => ({ current: classes[key].current, previousValue: classes[key].previous, previous: formatCount(classes[key].previous) });
  const rate = (key) => ({ rate: true, current: classes[key].current, previousValue: classes[key].previous, previous: formatPercent(classes[key].previous) });
  const total = classes.fill_bands.reduce((sum, b) => sum + b.sessions, 0);
  return (
    <section className="ov-block" aria-labelledby="ov-classes">
      <h3 id="ov-classes">Cours</h3>
      <ul className="ov-figures">
        <Figure label="Taux de remplissage" value={formatPercent(classes.fill_rate.current)} {...rate("fill_rate")} href={LINKS.past} linkText="Voir les cours passés" note={`${plural(classes.seats_taken.current, "place prise", "places prises")} sur ${formatCount(classes.places.current)}`} />
        <Figure label="Cours donnés" value={formatCount(classes.held.current)} {...pair("held")} href={LINKS.past} linkText="Voir les cours passés" />
        <Figure label="Cours complets" value={formatCount(classes.full.current)} {...pair("full")} href={LINKS.full} linkText="Voir les cours complets" />
        <Figure label="Cours annulés" value={formatCount(classes.cancelled.current)} {...pair("cancelled")} href={LINKS.cancelled} linkText="Voir les cours annulés" good="down" />
        <Figure
          label="Demandes en liste d'attente"
          value={formatCount(classes.waitlist_entries.current)}
          {...pair("waitlist_entries")}
          href={LINKS.full}
          linkText="Voir les cours complets"
          note={`${plural(classes.waitlist_members.current, "membre", "membres")}, ${plural(classes.waitlist_sessions.current, "cours", "cours")}, ${plural(classes.waitlist_booked.current, "place obtenue", "places obtenues")}`}
        />
        <Figure label="Présence" value={formatPercent(classes.attendance_rate.current)} {...rate("attendance_rate")} href={LINKS.past} linkText="Voir les cours passés" note={`${plural(classes.present.current, "présent", "présents")}, ${plural(classes.no_shows.current, "absent", "absents")} (pointés)`} />
      </ul>
      <div className="ov-charts">
        <ChartFigure
          title="Remplissage par cours"
          summary={classes.courses.map((c) => `${c.title} : ${formatPercent(c.fill_rate)}`).join(", ")}
          labels={courseLabels}
          datasets={courseData}
          horizontal
          format={percentTick}
          table={{
            columns: [
              { key: "title", label: "Cours" },
              { key: "sessions", label: "Séances" },
              { key: "seats", label: "Places prises / places" },
              { key: "rate", label: "Remplissage" },
            ],
            rows: classes.courses.map((c) => ({
              key: c.course_id,
              title: c.title,
              sessions: formatCount(c.sessions),
              seats: `${formatCount(c.seats_taken)} / ${formatCount(c.places)}`,
              rate: formatPercent(c.fill_rate),
            })),
          }}
        />
        <ChartFigure
          title="Séances selon leur remplissage"
          summary={classes.fill_bands.map((b) => `${BAND_LABELS[b.band]} : ${formatCount(b.sessions)}`).join(", ")}
          labels={total ? bandLabels : []}
          datasets={bandData}
          format={formatCount}
          table={{
            columns: [
              { key: "band", label: "Remplissage" },
              { key: "sessions", label: "Séances" },
            ],
            rows: classes.fill_bands.map((b) => ({ key: b.band, band: BAND_LABELS[b.band], sessions: formatCount(b.sessions) })),
          }}
        />
      </div>
      <Heatmap slots={classes.timetable} />
    </section>
  );
}

function Members({ members }) {
  const pair = (key) => ({ current: members[key].current, previousValue: members[key].previous, previous: formatCount(members[key].previous) });
  return (
    <section className="ov-block" aria-labelledby="ov-members">
      <h3 id="ov-members">Membres</h3>
      <ul className="ov-figures">
        <Figure label="Membres actifs" value={formatCount(members.active.current)} {...pair("active")} href={LINKS.users} linkText="Voir les membres" note="ont réservé un cours de la période" />
        <Figure label="Nouveaux membres" value={formatCount(members.new.current)} {...pair("new")} href={LINKS.users} linkText="Voir les membres" />
        <Figure label="Ne viennent plus" value={formatCount(members.stopped_coming.current)} {...pair("stopped_coming")} href={LINKS.users} linkText="Voir les membres" good="down" note="venus avant, aucun cours dans les 30 derniers jours" />
        <Figure label="Cartes bientôt épuisées" value={formatCount(members.cards_running_out)} href={LINKS.passes} linkText="Voir les cartes et abonnements" note="2 crédits ou moins, ou fin dans les 30 jours" />
        <Figure label="Abonnements qui se terminent" value={formatCount(members.subscriptions_running_out)} href={LINKS.ending} linkText="Voir les abonnements qui se terminent" note="dans les 30 jours" />
      </ul>
    </section>
  );
}

function Upcoming({ upcoming }) {
  return (
    <section className="ov-block" aria-labelledby="ov-upcoming">
      <h3 id="ov-upcoming">Les 7 prochains jours</h3>
      {upcoming.classes.length === 0 ? (
        <p className="ov-empty">Aucun cours dans les 7 prochains jours.</p>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Tableau : les cours des 7 prochains jours">
          <DataTable
            caption="Les cours des 7 prochains jours"
            columns={[
              { key: "course", label: "Cours" },
              { key: "when", label: "Quand" },
              { key: "seats", label: "Places prises / places" },
              { key: "waiting", label: "Liste d'attente" },
            ]}
            rows={upcoming.classes.map((c) => ({
              key: c.id,
              course: (
                <FigureLink href={LINKS.upcoming}>
                  {c.course}
                  <span className="visually-hidden"> : voir les sessions à venir</span>
                </FigureLink>
              ),
              when: `${formatShortDate(c.start)} ${formatTime(c.start)}${c.status === "cancelled" ? " (annulé)" : ""}`,
              seats: `${formatCount(c.seats_taken)} / ${formatCount(c.places)}${c.seats_taken >= c.places ? " (complet)" : ""}`,
              waiting: c.waiting ? formatCount(c.waiting) : "—",
            }))}
          />
        </div>
      )}
      <h4 className="ov-subhead">
        Impayés à relancer :{" "}
        <FigureLink href={LINKS.unpaid}>
          {formatCount(upcoming.unpaid_count)} échéance{upcoming.unpaid_count > 1 ? "s" : ""} ({formatEuros(upcoming.unpaid_amount)})
          <span className="visually-hidden"> : voir les abonnements impayés</span>
        </FigureLink>
      </h4>
      {upcoming.unpaid.length > 0 && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Tableau : échéances d'abonnement impayées">
          <DataTable
            caption="Échéances d'abonnement impayées"
            columns={[
              { key: "member", label: "Membre" },
              { key: "title", label: "Formule" },
              { key: "due", label: "Échéance" },
              { key: "amount", label: "Montant" },
            ]}
            rows={upcoming.unpaid.map((u) => ({
              key: `${u.subscription_id}-${u.period}`,
              member: (
                <>
                  {u.member}
                  <br />
                  <small>{u.email}</small>
                </>
              ),
              title: `${u.title} (période ${u.period})`,
              due: formatDay(u.due_on),
              amount: formatEuros(u.amount),
            }))}
          />
        </div>
      )}
    </section>
  );
}

/** The period and the one it is compared with, as the server will count them; null for a range it will refuse. */
function askedRange({ from, to }) {
  if (!from || !to || from > to) return null;
  return { period: { from, to, days: dayCount(from, to) }, previous: previousRange({ from, to }) };
}

export default function Overview() {
  const today = useMemo(() => parisToday(), []);
  const [choice, setChoice] = useState(() => periodFromSearch(typeof window === "undefined" ? "" : window.location.search, today));
  const { data, error, loading } = useApi(statsUrl(choice), { fallback: MSG_OVERVIEW_LOAD });
  const ready = Boolean(!error && data && data.money && data.classes && data.members && data.upcoming);
  // The period asked for is told at once, while its figures load; the server's own account of it once they are here.
  const range = ready ? { period: data.period, previous: data.previous } : !error && askedRange(choice);
  const change = (next) => {
    writePeriodToAddress(next);
    setChoice(next);
  };
  return (
    <section className="dash-section ov" aria-labelledby="dash-overview-title" aria-busy={loading}>
      <div className="dash-section-head">
        <h2 id="dash-overview-title">Vue d'ensemble</h2>
      </div>
      <PeriodPicker choice={choice} today={today} onChange={change} />
      {range && (
        <p className="ov-range" role="status">
          Du {formatDay(range.period.from)} au {formatDay(range.period.to)} ({formatCount(range.period.days)} jour{range.period.days > 1 ? "s" : ""}), comparé
          à la période précédente, du {formatDay(range.previous.from)} au {formatDay(range.previous.to)}.
        </p>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {loading && !ready && <p>Chargement…</p>}
      {ready && (
        <div className="ov-blocks">
          <Money money={data.money} />
          <Classes classes={data.classes} />
          <Members members={data.members} />
          <Upcoming upcoming={data.upcoming} />
        </div>
      )}
    </section>
  );
}
