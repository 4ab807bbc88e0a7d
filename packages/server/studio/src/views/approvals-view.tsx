import { type FormEvent, useEffect, useState } from "react";
import { api } from "../api/client.js";
import type { Interrupt, Json, PendingInterrupts } from "../api/wire.js";
import { navigate } from "../app.js";
import { ErrorNotice } from "../components/error-notice.js";
import { JsonTree } from "../components/json-tree.js";
import { RunActivity } from "../components/run-activity.js";
import { Transcript } from "../components/transcript.js";
import { useResource } from "../model/use-resource.js";
import { useRun } from "../model/use-run.js";

interface ToolApproval {
  type: "tool-approval";
  call: { toolName: string; arguments: Json; toolCallId?: string };
}

const isToolApproval = (value: Json): value is Json & ToolApproval =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  value.type === "tool-approval" &&
  typeof value.call === "object";

const questionOf = (value: Json): string | undefined =>
  typeof value === "string"
    ? value
    : typeof value === "object" && value !== null && !Array.isArray(value)
      ? typeof value.question === "string"
        ? value.question
        : undefined
      : undefined;

/** How often an open inbox asks the server again. */
const INBOX_REFRESH_MS = 3_000;

const loadInbox = (signal: AbortSignal) =>
  api.get<PendingInterrupts[]>("/interrupts?limit=100", signal);

/** Every interrupt waiting on the user, across threads: approve, decline, or answer. */
export default function ApprovalsView() {
  const inbox = useResource("inbox", loadInbox);
  const run = useRun();
  const [answering, setAnswering] = useState<{
    threadId: string;
    assistantId: string;
    name: string;
  }>();
  const phase = run.view?.phase;
  const { reload } = inbox;
  useEffect(() => {
    if (phase !== undefined && phase !== "streaming") reload();
  }, [phase, reload]);
  // New questions arrive from runs anywhere (another tab, a client of the API): look again
  // every few seconds while the inbox is open.
  useEffect(() => {
    const timer = setInterval(reload, INBOX_REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);

  function answer(pending: PendingInterrupts, interrupt: Interrupt, resume: Json) {
    setAnswering({
      threadId: pending.thread_id,
      assistantId: pending.assistant_id,
      name: pending.graph_id,
    });
    void run.start(
      {
        assistantId: pending.assistant_id,
        threadId: pending.thread_id,
        resume: { [interrupt.id]: resume },
      },
      false,
    );
  }

  if (inbox.error) return <ErrorNotice {...inbox.error} />;
  const items = inbox.data ?? [];
  const count = items.reduce((sum, pending) => sum + pending.interrupts.length, 0);
  return (
    <div className="split">
      <section className="list-pane wide" aria-labelledby="approvals-title">
        <h1 id="approvals-title">Approvals</h1>
        <p className="muted" role="status">
          {inbox.loading && !inbox.data
            ? "Loading…"
            : count === 0
              ? "Nothing is waiting on you."
              : `${count} waiting on you`}
        </p>
        <ul className="inbox">
          {items.flatMap((pending) =>
            pending.interrupts.map((interrupt) => (
              <li key={interrupt.id} className="inbox-item">
                <InterruptCard
                  pending={pending}
                  interrupt={interrupt}
                  busy={phase === "streaming"}
                  onAnswer={(resume) => answer(pending, interrupt, resume)}
                />
              </li>
            )),
          )}
        </ul>
      </section>
      {run.view && answering ? (
        <section className="detail-pane" aria-labelledby="resumed-title">
          <h2 id="resumed-title">
            {answering.name} · thread{" "}
            <a
              href={`/studio/threads/${answering.threadId}`}
              onClick={(event) => {
                event.preventDefault();
                navigate("threads", answering.threadId);
              }}
            >
              {answering.threadId.slice(0, 8)}
            </a>
          </h2>
          <RunActivity view={run.view} />
          <Transcript
            entries={run.view.transcript}
            showNodes
            ended={run.view.phase !== "streaming"}
          />
        </section>
      ) : null}
    </div>
  );
}

function InterruptCard({
  pending,
  interrupt,
  busy,
  onAnswer,
}: {
  pending: PendingInterrupts;
  interrupt: Interrupt;
  busy: boolean;
  onAnswer: (resume: Json) => void;
}) {
  const [text, setText] = useState("");
  const node = interrupt.ns[0]?.split(":")[0];
  const header = (
    <p className="pick-meta">
      {pending.graph_id}
      {node ? ` · ${node}` : ""} · thread {pending.thread_id.slice(0, 8)}
    </p>
  );
  if (isToolApproval(interrupt.value)) {
    const { call } = interrupt.value;
    return (
      <article aria-label={`Approve ${call.toolName}`}>
        {header}
        <h2 className="card-title">
          Run <code>{call.toolName}</code>?
        </h2>
        <JsonTree value={call.arguments} openDepth={2} />
        <div className="actions">
          <button type="button" disabled={busy} onClick={() => onAnswer(true)}>
            Approve
          </button>
          <button
            type="button"
            className="secondary"
            disabled={busy}
            onClick={() => onAnswer(false)}
          >
            Decline
          </button>
        </div>
      </article>
    );
  }
  const question = questionOf(interrupt.value);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    let answer: Json = text;
    try {
      answer = JSON.parse(text) as Json;
    } catch {
      // Plain text is an answer too.
    }
    onAnswer(answer);
  };
  const inputId = `answer-${interrupt.id}`;
  return (
    <article aria-label="Question">
      {header}
      <h2 className="card-title">{question ?? "The run asks:"}</h2>
      <JsonTree value={interrupt.value} openDepth={1} />
      <form className="inline-form" onSubmit={submit}>
        <label htmlFor={inputId}>Your answer (text or JSON)</label>
        <input id={inputId} value={text} onChange={(event) => setText(event.target.value)} />
        <button type="submit" disabled={busy}>
          Answer
        </button>
      </form>
    </article>
  );
}
