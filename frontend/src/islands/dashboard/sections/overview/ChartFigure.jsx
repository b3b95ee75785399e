/* One chart of the overview: a bar chart drawn by Chart.js (loaded lazily, its own chunk) with a text equivalent,
   the table of its data behind a "Voir les données" toggle, so the figures are not only in a picture. The library is
   fetched and run when a chart comes near the screen: on a phone the charts sit below the figures, and running it
   while the page first shows would hold back the figures and block the first taps. */
import { useEffect, useId, useRef, useState } from "react";

// One request for the library however many charts ask at once (a failed one may be tried again).
let library = null;
export function loadChartLibrary() {
  library ??= import("./chartjs.js").catch((failure) => {
    library = null;
    throw failure;
  });
  return library;
}
export const MSG_CHART_UNAVAILABLE = "Le graphique n'a pas pu être affiché : voici les données.";

const COLORS = ["#8e2c8e", "#f08bd0", "#5a1f63", "#e0a800"];

export function ChartFigure({ title, summary, labels, datasets, horizontal = false, format = String, table }) {
  const [showData, setShowData] = useState(false);
  const [failed, setFailed] = useState(false);
  const canvas = useRef(null);
  const tableId = useId();
  // Without IntersectionObserver (an old browser), the chart is drawn at once: it then costs the first paint.
  const [near, setNear] = useState(() => typeof IntersectionObserver === "undefined");
  const tableShown = showData || failed;

  useEffect(() => {
    if (near || tableShown || !labels.length || !canvas.current) return undefined;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setNear(true);
    }, { rootMargin: "200px 0px" });
    observer.observe(canvas.current);
    return () => observer.disconnect();
  }, [near, tableShown, labels.length]);

  useEffect(() => {
    if (!near || showData || failed || !labels.length) return undefined;
    let chart = null;
    let cancelled = false;
    loadChartLibrary().then(
      ({ Chart }) => {
        if (cancelled || !canvas.current) return;
        chart = new Chart(canvas.current, {
          type: "bar",
          data: {
            labels,
            datasets: datasets.map((d, i) => ({ ...d, backgroundColor: d.color || COLORS[i % COLORS.length], borderRadius: 4 })),
          },
          options: {
            indexAxis: horizontal ? "y" : "x",
            responsive: true,
            maintainAspectRatio: false,
            animation: false,
            plugins: {
              legend: { display: datasets.length > 1, position: "bottom" },
              tooltip: { callbacks: { label: (item) => `${item.dataset.label} : ${format(item.raw)}` } },
            },
            scales: {
              [horizontal ? "x" : "y"]: { beginAtZero: true, ticks: { callback: (value) => format(value), maxTicksLimit: 6 } },
              [horizontal ? "y" : "x"]: { ticks: { autoSkip: true, maxRotation: 0 } },
            },
          },
        });
      },
      () => {
        if (!cancelled) setFailed(true);
      },
    );
    return () => {
      cancelled = true;
      if (chart) chart.destroy();
    };
  }, [near, showData, failed, labels, datasets, horizontal, format]);

  const height = horizontal ? Math.max(160, labels.length * 34 + 60) : 260;
  return (
    <figure className="ov-chart">
      <figcaption className="ov-chart-head">
        <span className="ov-chart-title">{title}</span>
        {!failed && labels.length > 0 && (
          <button type="button" className="button button-small button-secondary" aria-expanded={showData} aria-controls={tableId} onClick={() => setShowData((v) => !v)}>
            {showData ? "Voir le graphique" : "Voir les données"}
          </button>
        )}
      </figcaption>
      {labels.length === 0 && <p className="ov-empty">Rien sur cette période.</p>}
      {failed && <p role="status">{MSG_CHART_UNAVAILABLE}</p>}
      {labels.length > 0 && !tableShown && (
        <div className="ov-canvas" style={{ height }}>
          <canvas ref={canvas} role="img" aria-label={`${title}. ${summary}`} />
        </div>
      )}
      {labels.length > 0 && tableShown && (
        <div className="table-wrap" id={tableId} tabIndex={0} role="region" aria-label={`Tableau : ${title}`}>
          <DataTable caption={title} {...table} />
        </div>
      )}
    </figure>
  );
}

/** A plain table: columns [{key, label}], rows of cells (already formatted). */
export function DataTable({ caption, columns, rows }) {
  return (
    <table className="table dash-table ov-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((c) => (
            <th scope="col" key={c.key}>
              {c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            {columns.map((c, i) =>
              i === 0 ? (
                <th scope="row" key={c.key} data-label={c.label}>
                  {row[c.key]}
                </th>
              ) : (
                <td key={c.key} data-label={c.label}>
                  {row[c.key]}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
