/* One figure: its value, how it moved since the previous period, and a link to the list behind it. */
import { FigureLink } from "./FigureLink.jsx";
import { change, pointChange } from "./numbers.js";

const ARROWS = { up: "▲", down: "▼", same: "=", new: "•" };
const SAID = { up: "en hausse", down: "en baisse", same: "stable", new: "" };

export function Figure({ label, value, previous, current, previousValue, rate = false, href, linkText, note, good = "up" }) {
  const moved = current === undefined ? null : rate ? pointChange(current, previousValue) : change(current, previousValue);
  const tone = !moved || moved.direction === "same" || moved.direction === "new" ? "" : moved.direction === good ? " ov-good" : " ov-bad";
  return (
    <li className="ov-figure">
      {/* The link's name is its visible text, completed for screen readers: "Encaissé : 1 234,50 €. Voir les commandes". */}
      <FigureLink href={href} className="ov-figure-link">
        <span className="ov-figure-label">{label}</span>
        <span className="visually-hidden"> : </span>
        <span className="ov-figure-value">{value}</span>
        <span className="visually-hidden">. {linkText}</span>
      </FigureLink>
      {moved && (
        <span className={`ov-delta${tone}`}>
          <span aria-hidden="true">{ARROWS[moved.direction]} </span>
          {moved.direction === "same" || moved.direction === "new" ? "" : `${SAID[moved.direction]} `}
          {moved.direction === "same" ? "stable" : moved.text}
          {previous !== undefined && <span className="ov-prev"> (avant : {previous})</span>}
        </span>
      )}
      {note && <span className="ov-note">{note}</span>}
    </li>
  );
}
