import { type FormEvent, type KeyboardEvent, useState } from "react";
import type { JsonObject } from "../api/wire.js";
import { ErrorNotice } from "../components/error-notice.js";
import { JsonTree } from "../components/json-tree.js";
import { RunActivity } from "../components/run-activity.js";
import { Transcript } from "../components/transcript.js";
import { createThread, searchAssistants } from "../model/assistants.js";
import { useResource } from "../model/use-resource.js";
import { useRun } from "../model/use-run.js";

/** The state without the conversation itself: what a crew or agent produced besides text. */
function structuredOutput(values: JsonObject | undefined): JsonObject | undefined {
  if (!values) return undefined;
  const { messages: _messages, conversations: _conversations, ...rest } = values;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/** Talk to an agent or a crew: answers stream in, tool calls fold open. */
export default function ChatView({ selected }: { selected: string }) {
  const assistants = useResource("assistants", searchAssistants);
  const [assistantId, setAssistantId] = useState(selected);
  const [threadId, setThreadId] = useState<string>();
  const [message, setMessage] = useState("");
  const [failure, setFailure] = useState<{ type: string; message: string }>();
  const run = useRun();
  const current =
    assistants.data?.find((assistant) =>
      [assistant.assistant_id, assistant.graph_id].includes(assistantId ?? ""),
    ) ?? assistants.data?.[0];
  const streaming = run.view?.phase === "streaming";

  async function send(event?: FormEvent) {
    event?.preventDefault();
    const text = message.trim();
    if (!current || text === "" || streaming) return;
    setFailure(undefined);
    try {
      const thread = threadId ?? (await createThread(current.assistant_id)).thread_id;
      setThreadId(thread);
      setMessage("");
      await run.start({ assistantId: current.assistant_id, threadId: thread, message: text });
    } catch (error) {
      setFailure(error as { type: string; message: string });
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      void send();
    }
  }

  if (assistants.error) return <ErrorNotice {...assistants.error} />;
  const output =
    run.view && run.view.phase !== "streaming" ? structuredOutput(run.view.values) : undefined;
  return (
    <section className="chat" aria-labelledby="chat-title">
      <header className="chat-header">
        <h1 id="chat-title">Chat</h1>
        <label htmlFor="chat-assistant">Assistant</label>
        <select
          id="chat-assistant"
          value={current?.assistant_id ?? ""}
          onChange={(event) => {
            setAssistantId(event.target.value);
            setThreadId(undefined);
            run.reset();
          }}
        >
          {assistants.data?.map((assistant) => (
            <option key={assistant.assistant_id} value={assistant.assistant_id}>
              {assistant.name} ({assistant.metadata.kind === "graph" ? "crew" : "agent"})
            </option>
          ))}
        </select>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setThreadId(undefined);
            run.reset();
          }}
        >
          New chat
        </button>
        {threadId ? <span className="muted small">thread {threadId.slice(0, 8)}</span> : null}
      </header>
      <div className="chat-body">
        {run.view ? (
          <>
            <Transcript
              entries={run.view.transcript}
              showNodes={current?.metadata.kind === "graph"}
              ended={run.view.phase !== "streaming"}
            />
            <RunActivity view={run.view} />
            {output ? (
              <section aria-label="Structured output" className="structured">
                <h2>Structured output</h2>
                <JsonTree value={output} openDepth={2} />
              </section>
            ) : null}
          </>
        ) : (
          <p className="muted empty">
            Send a message to start a thread with {current?.name ?? "an assistant"}.
          </p>
        )}
        {failure ? <ErrorNotice {...failure} /> : null}
      </div>
      <form className="composer" onSubmit={send}>
        <label htmlFor="chat-message" className="sr-only">
          Message
        </label>
        <textarea
          id="chat-message"
          rows={2}
          value={message}
          placeholder="Message (Enter sends, Shift+Enter for a new line)"
          onChange={(event) => setMessage(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" disabled={streaming || message.trim() === ""}>
          {streaming ? "Streaming…" : "Send"}
        </button>
      </form>
    </section>
  );
}
