// Reload.tsx — KCachegrind's reload (F5) for `calltree serve`: the page asks /api/v1/status
// every 2 s whether a served file changed on disk (size or modification time) and then says
// so; one click reads it again (/api/v1/reload), keeping the selected function (by name, file
// and object) and the view. A file deleted or cut short meanwhile is an error here; what was
// read before stays shown. One file of a run (callgrind.out.PID-NN, .N) says that its
// siblings exist.
import { useEffect, useState } from "preact/hooks";
import { ApiError, get, isReport } from "./api";
import { base } from "./format";
import { navigate, type ViewState } from "./url";

export interface Status {
  generation: number;
  reloadable: boolean;
  changed: boolean;
  files: { index: number; name: string; state: "same" | "changed" | "missing"; size: number }[];
  siblings: string[]; // the other files of the served file's run, not loaded
}

interface Reloaded {
  generation: number;
  function: number | null;
}

const POLL_MS = 2000;

export function ReloadBar({ state, onReloaded }: { state: ViewState; onReloaded: () => void }) {
  const [status, setStatus] = useState<Status | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (isReport()) return;
    let stop = false;
    let timer = 0;
    const poll = () => {
      get<Status>("status").then(
        (s) => !stop && setStatus(s),
        () => undefined, // (the server stopped: the next poll says nothing new either)
      );
      if (!stop) timer = window.setTimeout(poll, POLL_MS);
    };
    poll();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, []);
  if (!status) return null;
  const siblings = status.siblings.length > 0 && (
    <div class="siblings" data-testid="siblings" title={status.siblings.join("\n")}>
      This file is one of a run of {status.siblings.length + 1} files ({status.siblings.slice(0, 3).map(base).join(", ")}
      {status.siblings.length > 3 ? ", …" : ""}): <code>calltree serve --siblings FILE</code> shows them all as one profile, each file a part.
    </div>
  );
  if (!status.changed && !error) return siblings || null;
  const reload = () => {
    setBusy(true);
    setError(null);
    get<Reloaded>("reload", {
      generation: status.generation,
      keep: state.fn,
      side: state.side === "old" ? "old" : undefined,
    }).then(
      (r) => {
        setBusy(false);
        if (r.function !== state.fn) navigate({ fn: r.function }, true);
        onReloaded();
      },
      (e) => {
        setBusy(false);
        setError(e instanceof ApiError ? e.message : String(e?.message ?? e));
      },
    );
  };
  const changed = status.files.filter((f) => f.state !== "same");
  return (
    <>
    {siblings}
    <div class="reloadbar" role="status" data-testid="reload-bar">
      {changed.map((f) => (
        <span data-testid="reload-file" title={f.name}>
          {base(f.name)} {f.state === "missing" ? "was deleted or cannot be read" : "changed on disk"}.{" "}
        </span>
      ))}
      {status.reloadable && status.changed && (
        <button data-testid="reload" disabled={busy} onClick={reload} title="read the files again, keeping the selected function and the view">
          {busy ? "Reading…" : "Reload"}
        </button>
      )}
      {error && (
        <div class="error" role="alert" data-testid="reload-error">
          {error}
        </div>
      )}
    </div>
    </>
  );
}
