import { type CSSProperties, type FormEvent, useMemo, useState } from "react";
import { api, threadPath } from "../api/client.js";
import type { Thread, ThreadState } from "../api/wire.js";
import { navigate } from "../app.js";
import { ErrorNotice } from "../components/error-notice.js";
import { changedPaths, JsonTree } from "../components/json-tree.js";
import { RunActivity } from "../components/run-activity.js";
import { searchAssistants } from "../model/assistants.js";
import { timeline } from "../model/timeline.js";
import { useResource } from "../model/use-resource.js";
import { useRun } from "../model/use-run.js";

const searchThreads = (signal: AbortSignal) =>
  api.post<Thread[]>(
    "/threads/search",
    { limit: 100, sort_by: "updated_at", sort_order: "desc" },
    signal,
  );

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "");

/** The user's threads; one thread's checkpoints as a timeline to inspect and fork from. */
export default function ThreadsView({ selected }: { selected: string }) {
  const threads = useResource("threads", searchThreads);
  const assistants = useResource("assistants", searchAssistants);
  /** The name an assistant is served under, for an id a thread or checkpoint recorded. */
  const nameOf = (assistantId: unknown) =>
    assistants.data?.find((assistant) => assistant.assistant_id === assistantId)?.graph_id;
  if (threads.error) return <ErrorNotice {...threads.error} />;
  return (
    <div className="split">
      <section className="list-pane" aria-labelledby="threads-title">
        <h1 id="threads-title">Threads</h1>
        {threads.data?.length === 0 ? (
          <p className="muted">No threads yet: start one in Chat.</p>
        ) : null}
        <ul className="pick-list">
          {threads.data?.map((thread) => (
            <li key={thread.thread_id}>
              <button
                type="button"
                aria-pressed={thread.thread_id === selected}
                onClick={() => navigate("threads", thread.thread_id)}
              >
                <span className="pick-title">
                  {nameOf(thread.metadata.assistant_id) ?? "thread"} {thread.thread_id.slice(0, 8)}
                </span>
                <span className={`pick-meta status-${thread.status}`}>{thread.status}</span>
                <span className="pick-meta">{when(thread.updated_at)}</span>
              </button>
            </li>
          ))}
        </ul>
      </section>
      {selected ? <ThreadDetail key={selected} threadId={selected} nameOf={nameOf} /> : null}
    </div>
  );
}

function ThreadDetail({
  threadId,
  nameOf,
}: {
  threadId: string;
  nameOf: (assistantId: unknown) => string | undefined;
}) {
  const thread = useResource(threadId, (signal) => api.get<Thread>(threadPath(threadId), signal));
  const [generation, setGeneration] = useState(0);
  const history = useResource(`${threadId}:${generation}`, (signal) =>
    api.post<ThreadState[]>(threadPath(threadId, "/history"), { limit: 200 }, signal),
  );
  const points = useMemo(() => timeline(history.data ?? []), [history.data]);
  const [pickedId, setPickedId] = useState<string>();
  const picked = points.find((point) => point.id === pickedId) ?? points.at(-1);
  const parent = points.find((point) => point.id === picked?.parentId);
  const changed = useMemo(
    () => changedPaths(parent?.state.values, picked?.state.values),
    [parent, picked],
  );
  const run = useRun();
  const [message, setMessage] = useState("");
  const assistantId =
    (picked?.state.metadata.assistant_id as string | undefined) ??
    (thread.data?.metadata.assistant_id as string | undefined);
  const branches = new Set(points.map((point) => point.branch)).size;

  async function fork(event: FormEvent) {
    event.preventDefault();
    if (!picked || !assistantId) return;
    const text = message.trim();
    await run.start(
      {
        assistantId,
        threadId,
        checkpointId: picked.id,
        ...(text === "" ? {} : { message: text }),
      },
      false,
    );
    setMessage("");
    setGeneration((value) => value + 1);
  }

  if (history.error) return <ErrorNotice {...history.error} />;
  return (
    <section className="detail-pane" aria-labelledby="thread-title">
      <h2 id="thread-title">Thread {threadId.slice(0, 8)}</h2>
      <p className="muted small">
        {points.length} checkpoints on {branches} {branches === 1 ? "branch" : "branches"}
        {assistantId ? ` · ${nameOf(assistantId) ?? assistantId}` : ""}
      </p>
      <div className="timeline-layout">
        <ol className="timeline" aria-label="Checkpoints, oldest first" data-branches={branches}>
          {points.map((point, index) => (
            <li key={point.id} style={{ "--branch": point.branch } as CSSProperties}>
              <button
                type="button"
                data-branch={point.branch}
                aria-pressed={point.id === picked?.id}
                onClick={() => setPickedId(point.id)}
              >
                <span className={`branch-mark branch-${point.branch % 4}`} aria-hidden="true" />
                <span className="pick-title">
                  {index === 0 ? "start" : ((point.state.metadata.source as string) ?? "step")}{" "}
                  {String(point.state.metadata.step ?? "")}
                </span>
                <span className="pick-meta">
                  {point.branch > 0 ? `branch ${point.branch + 1} · ` : ""}
                  {point.state.next.length > 0 ? `next: ${point.state.next.join(", ")}` : "done"}
                </span>
              </button>
            </li>
          ))}
        </ol>
        {picked ? (
          <div className="checkpoint-detail">
            <h3>Checkpoint {picked.id.slice(0, 13)}</h3>
            <p className="muted small">
              {when(picked.state.created_at)} · highlighted: what changed since the checkpoint
              before
            </p>
            <JsonTree value={picked.state.values} changed={changed} openDepth={2} />
            <form className="inline-form" onSubmit={fork}>
              <label htmlFor="fork-message">Run from here, with a message (optional)</label>
              <input
                id="fork-message"
                value={message}
                onChange={(event) => setMessage(event.target.value)}
              />
              <button type="submit" disabled={!assistantId || run.view?.phase === "streaming"}>
                Run from here
              </button>
            </form>
            {run.view ? <RunActivity view={run.view} /> : null}
          </div>
        ) : null}
      </div>
    </section>
  );
}
