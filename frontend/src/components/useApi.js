/* The one data hook of the islands: GET `url` on mount (and when `url` changes or `reload()` is called), with
   loading/error state and an AbortController, so an island that unmounts or moves on never applies a stale answer.
     const { data, error, loading, reload, setData, failure } = useApi("/api/passes/mine", { fallback: MSG });
   - `url` null/"" → nothing is fetched (no user yet, a closed dialog) and no error shows; `data` stays as it was.
   - `error` is French text: the server's `{error}` body when it sent one, else `fallback` (or the network message).
   - `failure` is the ApiError itself (its `status` for the islands that tell a 404 from a 500).
   - `refreshKey`: any value; when it changes the data is fetched again (e.g. the dashboard's section).
   - `fresh: true` appends `t=<now>` to each request so the browser never answers from its cache.
   - `setData(value | (previous) => next)` lets an island update what it shows after a write. */
import { useCallback, useEffect, useState } from "react";
import { api, errorMessage } from "./api.js";

function freshUrl(url) {
  return `${url}${url.includes("?") ? "&" : "?"}t=${Date.now()}`;
}

export function useApi(url, { fallback = "", fresh = false, initialData = null, refreshKey } = {}) {
  const [state, setState] = useState(() => ({ data: initialData, failure: null, loading: Boolean(url) }));
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (!url) {
      setState((current) => (current.loading || current.failure ? { ...current, loading: false, failure: null } : current));
      return undefined;
    }
    const controller = new AbortController();
    setState((current) => (current.loading ? current : { ...current, loading: true }));
    api(fresh ? freshUrl(url) : url, { signal: controller.signal }).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, failure: null, loading: false });
      },
      (failure) => {
        if (!controller.signal.aborted) setState((current) => ({ ...current, failure, loading: false }));
      },
    );
    return () => controller.abort();
  }, [url, fresh, version, refreshKey]);

  const reload = useCallback(() => setVersion((n) => n + 1), []);
  const setData = useCallback((update) => setState((current) => ({ ...current, data: typeof update === "function" ? update(current.data) : update })), []);

  return { data: state.data, error: state.failure ? errorMessage(state.failure, fallback) : "", failure: state.failure, loading: state.loading, reload, setData };
}
