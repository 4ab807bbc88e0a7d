import { type CSSProperties, useMemo } from "react";
import { api, threadPath } from "../api/client.js";
import type { RunTrace, Span, TracedRun } from "../api/wire.js";
import { navigate } from "../app.js";
import { ErrorNotice } from "../components/error-notice.js";
import { searchAssistants } from "../model/assistants.js";
import { useResource } from "../model/use-resource.js";

const loadTraces = (signal: AbortSignal) =>
  api.get<{ recording: boolean; runs: TracedRun[] }>("/traces?limit=50", signal);

const ms = (value: number) =>
  value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(2)} s`;

const numberAttribute = (span: Span, name: string): number | undefined => {
  const value = span.attributes[name];
  return typeof value === "number" ? value : undefined;
};

/** A run's spans in tree order (parent before children), each with its depth. */
function treeOrder(spans: readonly Span[]): { span: Span; depth: number }[] {
  const ids = new Set(spans.map((span) => span.span_id));
  const children = new Map<string | null, Span[]>();
  for (const span of spans) {
    const parent =
      span.parent_span_id !== null && ids.has(span.parent_span_id) ? span.parent_span_id : null;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const ordered: { span: Span; depth: number }[] = [];
  const visit = (parent: string | null, depth: number) => {
    for (const span of (children.get(parent) ?? []).sort((a, b) => a.start_time - b.start_time)) {
      ordered.push({ span, depth });
      visit(span.span_id, depth + 1);
    }
  };
  visit(null, 0);
  return ordered;
}

/** Recent runs' spans (kept in memory while the studio is on), as a waterfall. */
export default function TracesView({ selected }: { selected: string }) {
  const traces = useResource("traces", loadTraces);
  const assistants = useResource("assistants", searchAssistants);
  const nameOf = (assistantId: string) =>
    assistants.data?.find((assistant) => assistant.assistant_id === assistantId)?.graph_id ??
    assistantId.slice(0, 8);
  if (traces.error) return <ErrorNotice {...traces.error} />;
  const runs = traces.data?.runs ?? [];
  const current = runs.find((run) => run.run_id === selected) ?? runs[0];
  return (
    <div className="split">
      <section className="list-pane" aria-labelledby="traces-title">
        <h1 id="traces-title">Traces</h1>
        {traces.data && !traces.data.recording ? (
          <p className="muted">
            Nothing is recorded: the app registered its own OpenTelemetry provider. Add a
            StudioSpanProcessor to it (see the server's README).
          </p>
        ) : null}
        {traces.data && runs.length === 0 ? (
          <p className="muted">No traced runs yet: run an assistant.</p>
        ) : null}
        <ul className="pick-list">
          {runs.map((run) => (
            <li key={run.run_id}>
              <button
                type="button"
                aria-pressed={run.run_id === current?.run_id}
                onClick={() => navigate("traces", run.run_id)}
              >
                <span className="pick-title">{nameOf(run.assistant_id)}</span>
                <span className={`pick-meta status-${run.status}`}>{run.status}</span>
                <span className="pick-meta">
                  {run.duration_ms === null ? "running" : ms(run.duration_ms)} · {run.span_count}{" "}
                  spans
                </span>
              </button>
            </li>
          ))}
        </ul>
      </section>
      {current ? (
        <Waterfall key={current.run_id} run={current} name={nameOf(current.assistant_id)} />
      ) : null}
    </div>
  );
}

function Waterfall({ run, name }: { run: TracedRun; name: string }) {
  const trace = useResource(run.run_id, (signal) =>
    api.get<RunTrace>(
      threadPath(run.thread_id, `/runs/${encodeURIComponent(run.run_id)}/trace`),
      signal,
    ),
  );
  const rows = useMemo(() => treeOrder(trace.data?.spans ?? []), [trace.data]);
  if (trace.error) return <ErrorNotice {...trace.error} />;
  const spans = trace.data?.spans ?? [];
  const start = Math.min(...spans.map((span) => span.start_time));
  const end = Math.max(...spans.map((span) => span.end_time ?? Date.now()));
  const total = Math.max(1, end - start);
  let input = 0;
  let output = 0;
  for (const span of spans) {
    if (!span.name.startsWith("chat")) continue;
    input += numberAttribute(span, "gen_ai.usage.input_tokens") ?? 0;
    output += numberAttribute(span, "gen_ai.usage.output_tokens") ?? 0;
  }
  return (
    <section className="detail-pane" aria-labelledby="trace-title">
      <h2 id="trace-title">
        {name} · run {run.run_id.slice(0, 8)}
      </h2>
      <p className="muted small">
        {ms(total)} · {spans.length} spans · tokens: {input} in, {output} out
        {trace.data?.dropped_spans ? ` · ${trace.data.dropped_spans} spans not kept` : ""}
      </p>
      <table className="waterfall">
        <thead>
          <tr>
            <th scope="col">Span</th>
            <th scope="col">Duration</th>
            <th scope="col">Tokens</th>
            <th scope="col" className="bar-column">
              Timeline
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ span, depth }) => {
            const spanEnd = span.end_time ?? end;
            const left = ((span.start_time - start) / total) * 100;
            const width = Math.max(0.5, ((spanEnd - span.start_time) / total) * 100);
            const tokensIn = numberAttribute(span, "gen_ai.usage.input_tokens");
            const tokensOut = numberAttribute(span, "gen_ai.usage.output_tokens");
            return (
              <tr key={span.span_id} className={span.status === "error" ? "is-error" : undefined}>
                <th scope="row" style={{ paddingLeft: `${0.5 + depth * 1.1}rem` } as CSSProperties}>
                  {span.name}
                  {span.status === "error" ? (
                    <span className="error-text small"> {span.status_message ?? "error"}</span>
                  ) : null}
                </th>
                <td>{span.end_time === null ? "open" : ms(spanEnd - span.start_time)}</td>
                <td>{tokensIn === undefined ? "" : `${tokensIn} / ${tokensOut ?? 0}`}</td>
                <td className="bar-column">
                  <span
                    className={`bar bar-${span.name.split(" ")[0]}`}
                    style={{ marginLeft: `${left}%`, width: `${width}%` }}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
