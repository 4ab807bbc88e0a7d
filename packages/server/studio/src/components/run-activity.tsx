import { navigate } from "../app.js";
import type { RunView } from "../model/run-view.js";

const phaseText: Record<RunView["phase"], string> = {
  streaming: "Running…",
  success: "Run finished",
  interrupted: "Waiting for an answer (see Approvals)",
  error: "Run failed",
};

/** A run's status line and the order its nodes started and finished in. */
export function RunActivity({ view }: { view: RunView }) {
  return (
    <section className="run-activity" aria-label="Run activity">
      <p className={`run-phase phase-${view.phase}`} role="status">
        {phaseText[view.phase]}
        {view.runId && view.phase !== "streaming" ? (
          <a
            className="trace-link"
            href={`/studio/traces/${view.runId}`}
            onClick={(event) => {
              event.preventDefault();
              navigate("traces", view.runId);
            }}
          >
            See its trace
          </a>
        ) : null}
      </p>
      <ol className="activity-log">
        {view.activity.map((entry, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the log only grows at its end.
          <li key={index} data-node={entry.node} data-what={entry.what}>
            <span className={`dot is-${entry.what}`} aria-hidden="true" />
            {entry.node} {entry.what}
          </li>
        ))}
      </ol>
    </section>
  );
}
