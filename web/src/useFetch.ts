// useFetch.ts — one API answer for a component, refetched when its key changes; a stale
// answer (the key changed while it was on its way) is dropped.
import { useEffect, useState } from "preact/hooks";
import { ApiError, get, type Params } from "./api";

export interface Fetched<T> {
  data: T | null;
  error: ApiError | null;
  loading: boolean;
}

export function useFetch<T>(path: string | null, params: Params = {}): Fetched<T> {
  const key = path === null ? "" : path + JSON.stringify(params);
  const [state, setState] = useState<Fetched<T> & { key: string }>({
    data: null,
    error: null,
    loading: path !== null,
    key: "",
  });
  useEffect(() => {
    if (path === null) {
      setState({ data: null, error: null, loading: false, key });
      return;
    }
    const ctl = new AbortController();
    setState((s) => ({ ...s, loading: true, key }));
    get<T>(path, params, ctl.signal).then(
      // (a report's answers are made in the page and do not heed the signal: a stale one is
      // dropped here as the server's aborted fetches are)
      (data) => !ctl.signal.aborted && setState({ data, error: null, loading: false, key }),
      (e) => {
        if (ctl.signal.aborted) return;
        const err = e instanceof ApiError ? e : new ApiError(0, "network", String(e?.message ?? e));
        setState({ data: null, error: err, loading: false, key });
      },
    );
    return () => ctl.abort();
  }, [key]);
  // (while a new key loads, the old answer stays on screen: no flicker)
  return state;
}
