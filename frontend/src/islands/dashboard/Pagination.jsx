/* First, previous, a window of 5 page numbers, next, last. */
import { pageWindow, totalPages } from "./paging.js";

export default function Pagination({ page, count, pageSize, onPage }) {
  const pages = totalPages(count, pageSize);
  if (pages <= 1) return null;
  const go = (n) => () => onPage(Math.min(pages, Math.max(1, n)));
  return (
    <nav className="dash-pagination" aria-label="Pagination">
      <button type="button" className="button button-small button-secondary" onClick={go(1)} disabled={page === 1}>
        « Première
      </button>
      <button type="button" className="button button-small button-secondary" onClick={go(page - 1)} disabled={page === 1}>
        ‹ Précédente
      </button>
      {pageWindow(page, pages).map((n) => (
        <button
          key={n}
          type="button"
          className={`button button-small ${n === page ? "" : "button-secondary"}`}
          aria-current={n === page ? "page" : undefined}
          aria-label={`Page ${n}`}
          onClick={go(n)}
        >
          {n}
        </button>
      ))}
      <button type="button" className="button button-small button-secondary" onClick={go(page + 1)} disabled={page === pages}>
        Suivante ›
      </button>
      <button type="button" className="button button-small button-secondary" onClick={go(pages)} disabled={page === pages}>
        Dernière »
      </button>
    </nav>
  );
}
