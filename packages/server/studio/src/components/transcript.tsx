import type { Json } from "../api/wire.js";
import type { TranscriptEntry } from "../model/run-view.js";
import { ErrorNotice } from "./error-notice.js";
import { JsonTree } from "./json-tree.js";

/** A tool's result: JSON as a tree when it is JSON, else the text. */
function ToolOutput({ text }: { text: string }) {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null) {
      return <JsonTree value={parsed as never} openDepth={1} />;
    }
  } catch {
    // Not JSON: shown as the text it is.
  }
  return <pre className="tool-text">{text}</pre>;
}

/** An answer that is a JSON object or array (structured output), parsed; else `undefined`. */
function structuredAnswer(text: string): Json | undefined {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return undefined;
  try {
    return JSON.parse(trimmed) as Json;
  } catch {
    return undefined;
  }
}

function Entry({
  entry,
  showNode,
  ended,
}: {
  entry: TranscriptEntry;
  showNode: boolean;
  ended: boolean;
}) {
  const node = "node" in entry && showNode ? <span className="node-tag">{entry.node}</span> : null;
  switch (entry.kind) {
    case "user":
      return (
        <li className="message message-user">
          <span className="speaker">You</span>
          <p>{entry.text}</p>
        </li>
      );
    case "text": {
      const structured = ended ? structuredAnswer(entry.text) : undefined;
      return (
        <li className="message message-assistant">
          <span className="speaker">
            {structured ? "Structured output" : "Assistant"} {node}
          </span>
          {structured ? <JsonTree value={structured} openDepth={2} /> : <p>{entry.text}</p>}
        </li>
      );
    }
    case "reasoning":
      return (
        <li className="message message-note">
          <details>
            <summary>Reasoning {node}</summary>
            <p>{entry.text}</p>
          </details>
        </li>
      );
    case "tool":
      return (
        <li className="message message-tool" data-tool={entry.toolName}>
          <details>
            <summary>
              <span className="tool-name">{entry.toolName}</span> {node}
              <span className={`tool-state ${entry.isError ? "is-error" : ""}`}>
                {entry.result === undefined
                  ? ended
                    ? "did not finish"
                    : "running…"
                  : entry.isError
                    ? "failed"
                    : `done${entry.durationMs === undefined ? "" : ` in ${Math.round(entry.durationMs)} ms`}`}
              </span>
            </summary>
            <h4>Arguments</h4>
            <JsonTree value={entry.args} openDepth={1} />
            {entry.result === undefined ? null : (
              <>
                <h4>Result</h4>
                <ToolOutput text={entry.result} />
              </>
            )}
          </details>
        </li>
      );
    case "interrupt":
      return (
        <li className="message message-note">
          <span className="speaker">Waiting for an answer {node}</span>
          <JsonTree value={entry.value} openDepth={2} />
        </li>
      );
    case "error":
      return (
        <li className="message">
          <ErrorNotice type={entry.type} message={entry.message} />
        </li>
      );
  }
}

/** A run's messages, tool calls, reasoning and errors, as they stream in. */
export function Transcript({
  entries,
  showNodes,
  ended = false,
}: {
  entries: readonly TranscriptEntry[];
  showNodes: boolean;
  /** The run is over: a call without a result was stopped (e.g. by a pause) and will run again. */
  ended?: boolean;
}) {
  return (
    <ol className="transcript" aria-live="polite" aria-label="Conversation">
      {entries.map((entry) => (
        <Entry key={entry.key} entry={entry} showNode={showNodes} ended={ended} />
      ))}
    </ol>
  );
}
