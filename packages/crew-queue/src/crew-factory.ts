import type { Checkpointer, CompiledGraph, CrewAgent, StateDefinition } from "@framework/graph";

/** What a crew factory is given. */
export interface CrewFactoryContext {
  /**
   * The worker's checkpointer, which the crew must use: the `checkpointer` the worker was
   * given, each write fenced by the lease the worker holds on that checkpoint's run, so a
   * worker that lost a run can no longer write to its thread.
   */
  readonly checkpointer: Checkpointer;
  /** The crew's name, as runs are submitted with. */
  readonly crew: string;
}

/** A crew a worker can run: a `CrewAgent` or a compiled graph. */
export type Crew = CrewAgent<StateDefinition> | CompiledGraph<StateDefinition>;

/**
 * Builds a crew on the worker's checkpointer. A worker calls it once, when it first runs that
 * crew, and runs every later run of it (concurrent ones too) on the same instance.
 */
export type CrewFactory = (context: CrewFactoryContext) => Crew | Promise<Crew>;
