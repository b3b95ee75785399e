/* A staff list: a table, add/edit in one modal, delete after confirmation, server-side pages and sorting.
   Each section passes a config (see sections/*.jsx). Every action ends on a French line in the section's status
   region (role="status", kept in view while the list scrolls): the section's own actions report through
   ctx.notify(message). A section whose rows offer many actions puts them behind one "Actions" menu
   (config.actionsMenu), so that its rows stay one or two lines tall. */
import { useEffect, useMemo, useRef, useState } from "react";
import { api } from "../../components/api.js";
import { useApi } from "../../components/useApi.js";
import ActionsMenu from "./ActionsMenu.jsx";
import ConfirmDialog from "./ConfirmDialog.jsx";
import FormModal from "./FormModal.jsx";
import { MSG_DELETE, MSG_DELETED, MSG_EMPTY, MSG_LOAD, MSG_NOT_AVAILABLE, MSG_SAVE, MSG_SAVED } from "./messages.js";
import Pagination from "./Pagination.jsx";
import { listQuery, normaliseList, PAGE_SIZE, toggleOrdering } from "./paging.js";
import { fieldErrors, send } from "./request.js";

const allowed = (rule, row, user) => (typeof rule === "function" ? rule(row, user) : rule !== false);

function useOptions(sources) {
  const [options, setOptions] = useState({});
  const [error, setError] = useState("");
  useEffect(() => {
    const controller = new AbortController();
    const live = () => !controller.signal.aborted;
    for (const [name, source] of Object.entries(sources || {})) {
      api(source.endpoint, { signal: controller.signal })
        .then((data) => live() && setOptions((current) => ({ ...current, [name]: source.map(normaliseList(data).rows) })))
        .catch(() => live() && setError(source.error || MSG_LOAD));
    }
    return () => controller.abort();
  }, [sources]);
  return [options, error];
}

export default function ResourceSection({ config, user }) {
  const pageSize = config.pageSize || PAGE_SIZE;
  const [ownPage, setOwnPage] = useState(1);
  const [ownOrdering, setOwnOrdering] = useState(config.defaultOrdering || "");
  // A section may keep its page and sort itself (e.g. in the address): config.listState = {page, setPage, ordering, setOrdering}.
  const page = config.listState ? config.listState.page : ownPage;
  const setPage = config.listState ? config.listState.setPage : setOwnPage;
  const ordering = config.listState ? config.listState.ordering : ownOrdering;
  const setOrdering = config.listState ? config.listState.setOrdering : setOwnOrdering;
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState("");
  const [success, setSuccess] = useState("");
  const [actionError, setActionError] = useState("");
  const [form, setForm] = useState(null); // {mode, row, values, errors, error, busy, progress}
  const [deleting, setDeleting] = useState(null); // {row, busy, error}
  const [options, optionsError] = useOptions(config.options);
  // After a deletion the row and its "Supprimer" button are gone: the focus goes to the table instead.
  const table = useRef(null);
  const afterDelete = useRef(null);


  useEffect(() => {
    const next = search.trim();
    if (next === query) return undefined;
    const timer = setTimeout(() => {
      setQuery(next);
      setPage(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [search, query]);

  const listUrl = useMemo(() => {
    const base = config.serverPaged ? { page, pageSize, ordering, search: query } : { ordering, search: query };
    return `${config.endpoint}${listQuery({ ...base, extra: config.listParams?.() })}`;
  }, [config, page, pageSize, ordering, query]);
  const listing = useApi(listUrl, { fallback: config.messages?.load || MSG_LOAD });
  const { reload } = listing;
  const list = useMemo(() => normaliseList(listing.data), [listing.data]);
  const loading = listing.loading;
  // A 404 past the first page goes back to page 1; a 404/405 on page 1 means the API is not there (yet).
  const status = listing.failure?.status;
  const missing = (status === 404 && page <= 1) || status === 405;
  const loadError = listing.failure && status !== 404 && status !== 405 ? listing.error : "";

  useEffect(() => {
    if (status === 404 && page > 1) setPage(1);
  }, [status, page]);

  useEffect(() => {
    // A page emptied by a deletion: show the one before.
    if (list.paginated && list.rows.length === 0 && page > 1) setPage((p) => p - 1);
  }, [list, page]);


  // After a row's own action (ctx.notify) the reloaded list may no longer hold that row (a class cancelled leaves the
  // upcoming sessions), and its focused button with it: the focus then goes to the table, not the page's body.
  const afterAction = useRef(false);
  useEffect(() => {
    if (!afterAction.current || listing.loading) return;
    afterAction.current = false;
    const active = document.activeElement;
    if ((!active || active === document.body) && table.current?.isConnected) table.current.focus();
  }, [list, listing.loading]);
  const notify = (message) => {
    afterAction.current = true;
    flash(message);
  };

  // The confirmation stays until the next action: a message that vanishes after a few seconds is missed by whoever
  // reads slowly or looked away (WCAG 2.2.1).
  const flash = (message) => {
    setSuccess(message);
  };

  const ctx = { user, options, reload, notify };
  const openForm = (mode, row = null) => {
    setActionError("");
    setSuccess("");
    const values = mode === "edit" ? config.toForm(row, ctx) : config.emptyValues?.(ctx) || {};
    setForm({ mode, row, values, errors: {}, error: "", busy: false, progress: null });
  };

  const changeField = (name, value) =>
    setForm((current) => {
      let values = { ...current.values, [name]: value };
      if (config.onFieldChange) values = config.onFieldChange(values, name, value);
      const errors = { ...current.errors };
      delete errors[name];
      return { ...current, values, errors };
    });

  const submit = async () => {
    const { mode, row, values } = form;
    const invalid = config.validate?.(values, mode, ctx);
    if (invalid) {
      setForm((current) => ({ ...current, errors: invalid.errors || {}, error: invalid.message }));
      return;
    }
    setForm((current) => ({ ...current, busy: true, error: "", errors: {} }));
    try {
      const body = config.toPayload ? await config.toPayload(values, mode, { ...ctx, row }) : values;
      if (body instanceof FormData) setForm((current) => current && { ...current, progress: 0 });
      // A section may send some saves elsewhere (e.g. a session "and the following" of its series).
      const target = config.submitTo?.({ values, mode, row, body }) || {};
      const path = target.path || (mode === "edit" ? config.itemPath(row) : config.endpoint);
      const saved = await send(path, {
        method: target.method || (mode === "edit" ? config.editMethod || "PUT" : "POST"),
        body: target.body || body,
        onProgress: (progress) => setForm((current) => current && { ...current, progress }),
      });
      setForm(null);
      flash(config.savedMessage?.(saved) || (mode === "edit" ? config.messages?.updated || MSG_SAVED : config.messages?.added || MSG_SAVED));
      config.onSaved?.(saved, { mode, row });
      reload();
    } catch (error) {
      const errors = fieldErrors(error);
      const message = error.status > 0 && error.message ? error.message : config.messages?.save || MSG_SAVE;
      setForm((current) => current && { ...current, busy: false, progress: null, errors, error: message });
    }
  };

  const confirmDelete = async () => {
    const { row } = deleting;
    setDeleting((current) => ({ ...current, busy: true, error: "" }));
    try {
      await api(config.itemPath(row), { method: "DELETE" });
      afterDelete.current = table.current;
      setDeleting(null);
      flash(config.messages?.deleted || MSG_DELETED);
      reload();
    } catch (error) {
      const fallback = config.messages?.delete || MSG_DELETE;
      const message = error.status > 0 && error.message ? `${fallback} ${error.message}` : fallback;
      setDeleting(null);
      setActionError(message);
    }
  };

  const sortHeader = (column) => {
    const active = ordering === column.sort || ordering === `-${column.sort}`;
    const descending = ordering === `-${column.sort}`;
    return (
      <th key={column.key} scope="col" aria-sort={active ? (descending ? "descending" : "ascending") : "none"}>
        <button
          type="button"
          className="dash-sort"
          onClick={() => {
            setOrdering((current) => toggleOrdering(current, column.sort));
            setPage(1);
          }}
        >
          {column.label}
          <span aria-hidden="true">{active ? (descending ? " ▼" : " ▲") : " ↕"}</span>
          <span className="visually-hidden">
            {active ? (descending ? " (tri décroissant)" : " (tri croissant)") : " (trier)"}
          </span>
        </button>
      </th>
    );
  };

  const canEdit = config.fields && config.canEdit !== false;
  const canDelete = config.canDelete !== false && config.itemPath;
  // Read-only lists (reservations, parties, rentals) have nothing to act on: no empty "Actions" column.
  const hasActions = Boolean(config.rowActions || canEdit || canDelete);
  // The row's buttons, inline or inside its "Actions" menu (which the generic edit and delete close first, so that
  // their dialog gives the focus back to the "Actions" button).
  const rowButtons = (row, closeMenu) => (
    <>
      {config.rowActions?.(row, ctx, closeMenu)}
      {canEdit && allowed(config.canEditRow, row, user) && (
        <button
          type="button"
          className="button button-small button-secondary"
          onClick={() => {
            closeMenu?.();
            openForm("edit", row);
          }}
        >
          Modifier<span className="visually-hidden"> {config.label(row)}</span>
        </button>
      )}
      {canDelete && allowed(config.canDeleteRow, row, user) && (
        <button
          type="button"
          className="button button-small button-danger"
          onClick={() => {
            closeMenu?.();
            setActionError("");
            afterDelete.current = null;
            setDeleting({ row, busy: false, error: "" });
          }}
        >
          Supprimer<span className="visually-hidden"> {config.label(row)}</span>
        </button>
      )}
    </>
  );
  const fields = form ? config.fields({ ...ctx, mode: form.mode, values: form.values, row: form.row }) : [];

  return (
    <section className="dash-section" aria-labelledby={`dash-${config.key}-title`}>
      <div className="dash-section-head">
        <h2 id={`dash-${config.key}-title`}>{config.title}</h2>
        {config.fields && config.canAdd !== false && !missing && (
          <button type="button" className="button" onClick={() => openForm("add")}>
            Ajouter {config.noun}
          </button>
        )}
        {/* A section's own actions sit with "Ajouter", above the list: below it, they moved down when the rows arrived. */}
        {!missing && config.extra?.(ctx)}
      </div>
      {config.intro && <p className="help">{config.intro}</p>}
      {/* A section's filters sit under its title and "Ajouter", above the list they filter. */}
      {!missing && config.toolbar?.(ctx)}
      {config.searchable && (
        <div className="field dash-search">
          <label htmlFor={`dash-${config.key}-search`}>{config.searchable}</label>
          <input id={`dash-${config.key}-search`} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
      )}
      <div aria-live="polite" className="dash-flash-region">
        {success && (
          <p className="form-success dash-flash" role="status">
            {success}
          </p>
        )}
      </div>
      {[loadError, optionsError, actionError].filter(Boolean).map((message) => (
        <p key={message} className="form-error" role="alert">
          {message}
        </p>
      ))}
      {missing ? (
        <p className="help">{MSG_NOT_AVAILABLE}</p>
      ) : (
        <div ref={table} className="table-wrap" tabIndex={0} role="region" aria-label={`Tableau : ${config.title}`}>
          <table className="table dash-table" aria-busy={loading ? "true" : "false"}>
            <thead>
              <tr>
                {config.columns.map((column) =>
                  column.sort ? (
                    sortHeader(column)
                  ) : (
                    <th key={column.key} scope="col">
                      {column.label}
                    </th>
                  )
                )}
                {hasActions && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {list.rows.map((row) => (
                <tr key={config.rowKey ? config.rowKey(row) : row.id} className={config.rowClass?.(row) || undefined}>
                  {config.columns.map((column) => (
                    <td key={column.key} data-label={column.label} className={column.className}>
                      {column.render ? column.render(row, ctx) : row[column.key]}
                    </td>
                  ))}
                  {hasActions && (
                    <td className="dash-actions" data-label="Actions">
                      {config.actionsMenu ? (
                        <ActionsMenu label={config.label(row)}>{(close) => rowButtons(row, close)}</ActionsMenu>
                      ) : (
                        rowButtons(row, null)
                      )}
                    </td>
                  )}
                </tr>
              ))}
              {!loading && list.rows.length === 0 && (
                <tr>
                  <td colSpan={config.columns.length + (hasActions ? 1 : 0)}>{MSG_EMPTY}</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      {list.paginated && <Pagination page={page} count={list.count} pageSize={pageSize} onPage={setPage} />}
      {list.paginated && (
        <p className="help">
          {list.count} élément{list.count > 1 ? "s" : ""}
        </p>
      )}
      {form && (
        <FormModal
          open
          title={form.mode === "edit" ? `Modifier ${config.noun}` : `Ajouter ${config.noun}`}
          fields={fields}
          values={form.values}
          errors={form.errors}
          formError={form.error}
          busy={form.busy}
          progress={form.progress}
          onChange={changeField}
          onSubmit={submit}
          onClose={() => setForm(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          open
          question={`Voulez-vous vraiment supprimer « ${config.label(deleting.row)} » ?`}
          busy={deleting.busy}
          error={deleting.error}
          onConfirm={confirmDelete}
          onCancel={() => setDeleting(null)}
          returnFocus={afterDelete}
        />
      )}
    </section>
  );
}
