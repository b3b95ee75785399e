/* How full the timetable is, day by hour: a grid coloured by fill rate, and the same numbers in a table
   behind "Voir les données". Drawn in HTML (no chart library needed for a grid). */
import { useId, useState } from "react";
import { DataTable } from "./ChartFigure.jsx";
import { WEEKDAYS, WEEKDAYS_SHORT, formatCount, formatPercent } from "./numbers.js";

function shade(rate) {
  if (rate === null || rate === undefined) return undefined;
  const level = Math.min(4, Math.floor(Number(rate) * 4));
  return `ov-heat-${level}`;
}

export function Heatmap({ slots }) {
  const [showData, setShowData] = useState(false);
  const tableId = useId();
  const hours = [...new Set(slots.map((s) => s.hour))].sort((a, b) => a - b);
  const days = [...new Set(slots.map((s) => s.weekday))].sort((a, b) => a - b);
  const at = new Map(slots.map((s) => [`${s.weekday}-${s.hour}`, s]));
  const title = "Remplissage par jour et par heure";
  return (
    <figure className="ov-chart">
      <figcaption className="ov-chart-head">
        <span className="ov-chart-title">{title}</span>
        {slots.length > 0 && (
          <button type="button" className="button button-small button-secondary" aria-expanded={showData} aria-controls={tableId} onClick={() => setShowData((v) => !v)}>
            {showData ? "Voir la grille" : "Voir les données"}
          </button>
        )}
      </figcaption>
      {slots.length === 0 && <p className="ov-empty">Rien sur cette période.</p>}
      {slots.length > 0 && !showData && (
        // Focusable: on a phone the grid scrolls sideways inside its card, by keyboard too.
        <div className="ov-heat-wrap" role="img" tabIndex={0} aria-label={`${title} : voir les données pour le détail par créneau.`}>
          <div className="ov-heat" style={{ gridTemplateColumns: `3.2rem repeat(${hours.length}, minmax(2.4rem, 1fr))` }} aria-hidden="true">
            <span />
            {hours.map((h) => (
              <span key={`h${h}`} className="ov-heat-hour">
                {h} h
              </span>
            ))}
            {days.map((d) => [
              <span key={`d${d}`} className="ov-heat-day">
                {WEEKDAYS_SHORT[d - 1]}
              </span>,
              ...hours.map((h) => {
                const slot = at.get(`${d}-${h}`);
                return (
                  <span key={`${d}-${h}`} className={`ov-heat-cell ${slot ? shade(slot.fill_rate) : "ov-heat-none"}`} title={slot ? `${WEEKDAYS[d - 1]} ${h} h : ${formatPercent(slot.fill_rate)}` : undefined}>
                    {slot ? formatPercent(slot.fill_rate) : ""}
                  </span>
                );
              }),
            ])}
          </div>
        </div>
      )}
      {slots.length > 0 && showData && (
        <div className="table-wrap" id={tableId} tabIndex={0} role="region" aria-label={`Tableau : ${title}`}>
          <DataTable
            caption={title}
            columns={[
              { key: "slot", label: "Créneau" },
              { key: "sessions", label: "Séances" },
              { key: "seats", label: "Places prises / places" },
              { key: "rate", label: "Remplissage" },
            ]}
            rows={slots.map((s) => ({
              key: `${s.weekday}-${s.hour}`,
              slot: `${WEEKDAYS[s.weekday - 1]} ${s.hour} h`,
              sessions: formatCount(s.sessions),
              seats: `${formatCount(s.seats_taken)} / ${formatCount(s.places)}`,
              rate: formatPercent(s.fill_rate),
            }))}
          />
        </div>
      )}
    </figure>
  );
}
