import { useCallback, useEffect, useState } from "react";
import { ApiError } from "../api/client.js";

/** What a view loaded from the server: the data, or the server's typed error. */
export interface Resource<T> {
  readonly data: T | undefined;
  readonly error: ApiError | undefined;
  readonly loading: boolean;
  reload(): void;
}

const asApiError = (error: unknown): ApiError =>
  ApiError.isInstance(error)
    ? error
    : new ApiError(0, "Error", error instanceof Error ? error.message : String(error));

/** Loads `load()` when `key` changes (and on `reload`), keeping the last answer meanwhile. */
export function useResource<T>(
  key: string | undefined,
  load: (signal: AbortSignal) => Promise<T>,
): Resource<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({
    loading: key !== undefined,
  });
  const [generation, setGeneration] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for what `load` reads.
  useEffect(() => {
    if (key === undefined) return;
    const abort = new AbortController();
    setState((previous) => ({ ...previous, loading: true }));
    load(abort.signal).then(
      (data) => abort.signal.aborted || setState({ data, loading: false }),
      (error: unknown) =>
        abort.signal.aborted || setState({ error: asApiError(error), loading: false }),
    );
    return () => abort.abort();
  }, [key, generation]);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
