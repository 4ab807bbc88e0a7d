import { type FormEvent, lazy, Suspense, useState } from "react";
import { api } from "../api/client.js";
import type { GraphDrawing } from "../api/wire.js";
import { ErrorNotice } from "../components/error-notice.js";
import { JsonTree } from "../components/json-tree.js";
import { RunActivity } from "../components/run-activity.js";
import { Transcript } from "../components/transcript.js";
import { createThread, searchAssistants } from "../model/assistants.js";
import { useResource } from "../model/use-resource.js";
import { useRun } from "../model/use-run.js";

const GraphCanvas = lazy(() => import("../components/graph-canvas.js"));

/** Every served assistant; the chosen one's graph, lit up while a run streams. */
export default function AssistantsView({ selected }: { selected: string }) {
  const assistants = useResource("assistants", searchAssistants);
  const [chosen, setChosen] = useState(selected);
  const current =
    assistants.data?.find((assistant) =>
      [assistant.assistant_id, assistant.graph_id].includes(chosen),
    ) ?? assistants.data?.[0];
  const drawing = useResource(current?.assistant_id, (signal) =>
    api.get<GraphDrawing>(`/assistants/${encodeURIComponent(current!.assistant_id)}/graph`, signal),
  );
  const run = useRun();
  const [message, setMessage] = useState("");

  async function start(event: FormEvent) {
    event.preventDefault();
    if (!current || message.trim() === "") return;
    const thread = await createThread(current.assistant_id);
    await run.start(
      { assistantId: current.assistant_id, threadId: thread.thread_id, message: message.trim() },
      false,
    );
  }

  if (assistants.error) return <ErrorNotice {...assistants.error} />;
  return (
    <div className="split">
      <section className="list-pane" aria-labelledby="assistants-title">
        <h1 id="assistants-title">Assistants</h1>
        {assistants.loading && !assistants.data ? <p className="muted">Loading…</p> : null}
        <ul className="pick-list">
          {assistants.data?.map((assistant) => (
            <li key={assistant.assistant_id}>
              <button
                type="button"
                aria-pressed={assistant.assistant_id === current?.assistant_id}
                onClick={() => {
                  setChosen(assistant.assistant_id);
                  run.reset();
                }}
              >
                <span className="pick-title">{assistant.name}</span>
                <span className="pick-meta">
                  {assistant.metadata.kind === "graph" ? "graph" : "agent"}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </section>
      {current ? (
        <section className="detail-pane" aria-labelledby="assistant-title">
          <h2 id="assistant-title">{current.name}</h2>
          {current.description ? <p className="muted">{current.description}</p> : null}
          {drawing.error ? <ErrorNotice {...drawing.error} /> : null}
          {drawing.data ? (
            <Suspense fallback={<p className="muted">Loading the graph…</p>}>
              <GraphCanvas drawing={drawing.data} status={run.view?.nodes ?? {}} />
            </Suspense>
          ) : null}
          <form className="inline-form" onSubmit={start}>
            <label htmlFor="run-message">Run with a message</label>
            <input
              id="run-message"
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              placeholder="e.g. Compare Apple and Bitcoin for a cautious investor"
            />
            <button
              type="submit"
              disabled={run.view?.phase === "streaming" || message.trim() === ""}
            >
              Run
            </button>
          </form>
          {run.view ? (
            <div className="run-panels">
              <RunActivity view={run.view} />
              <Transcript
                entries={run.view.transcript}
                showNodes
                ended={run.view.phase !== "streaming"}
              />
              {run.view.phase !== "streaming" && run.view.values ? (
                <details className="final-state">
                  <summary>Final state</summary>
                  <JsonTree value={run.view.values} openDepth={1} />
                </details>
              ) : null}
            </div>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
