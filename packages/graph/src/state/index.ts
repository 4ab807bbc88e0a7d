export { appendReducer } from "./append-reducer.js";
export { type DefaultReducerUpdate, type Reducer, reducer } from "./reducer.js";
export {
  defineState,
  StateDefinition,
  type StateOf,
  type StateShape,
  type StateUpdate,
  type StateValues,
  type UpdateOf,
} from "./state-definition.js";
export type { StateRecord } from "./state-engine.js";
