/* Server-side pagination and sorting helpers (10 a page, a window of 5 page numbers). */
export const PAGE_SIZE = 10;
export const PAGE_WINDOW = 5;

export function totalPages(count, pageSize = PAGE_SIZE) {
  return Math.max(1, Math.ceil((count || 0) / pageSize));
}

/** The page numbers to show: at most `size`, centred on `current` where possible. */
export function pageWindow(current, pages, size = PAGE_WINDOW) {
  const start = Math.max(1, Math.min(current - Math.floor(size / 2), pages - size + 1));
  const end = Math.min(pages, start + size - 1);
  const numbers = [];
  for (let n = start; n <= end; n += 1) numbers.push(n);
  return numbers;
}

export function toggleOrdering(ordering, field) {
  return ordering === field ? `-${field}` : field;
}

export function listQuery({ page, pageSize, ordering, search, extra }) {
  const params = new URLSearchParams(extra || {});
  if (page) params.set("page", String(page));
  if (pageSize) params.set("page_size", String(pageSize));
  if (ordering) params.set("ordering", ordering);
  if (search) params.set("search", search);
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** Lists come paginated ({count, results}) or as plain arrays. */
export function normaliseList(data) {
  if (Array.isArray(data)) return { rows: data, count: data.length, paginated: false };
  if (data && Array.isArray(data.results)) return { rows: data.results, count: data.count ?? data.results.length, paginated: true };
  return { rows: [], count: 0, paginated: false };
}
