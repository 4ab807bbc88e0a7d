export {
  type ReliabilityCounts,
  type ReliabilityReport,
  ReliabilityTally,
  reliabilityReportDirVariable,
} from "./reliability-tally.js";
export {
  type FixtureChildRun,
  type RunFixtureChildOptions,
  runFixtureChild,
} from "./run-fixture-child.js";
export { seededRandom } from "./seeded-random.js";
