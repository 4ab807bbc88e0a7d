import type { Checkpointer, CompiledGraph, CrewAgent, StateDefinition } from "@framework/graph";

/** What a crew factory is given for one run. */
export interface CrewFactoryContext {
  /**
   * The checkpointer the crew must use: the worker's saver, fenced by this run's lease, so a
   * worker that lost the run can no longer write to its thread.
   */
  readonly checkpointer: Checkpointer;
  readonly runId: string;
  readonly threadId: string;
}

/** A crew a worker can run: a `CrewAgent` or a compiled graph. */
export type Crew = CrewAgent<StateDefinition> | CompiledGraph<StateDefinition>;

/**
 * Builds the crew for one run on the given checkpointer. Called once per run a worker takes
 * (and again on every takeover), so keep expensive clients (models, pools) outside it.
 */
export type CrewFactory = (context: CrewFactoryContext) => Crew | Promise<Crew>;
