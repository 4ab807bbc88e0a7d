export {
  type ReliabilityCounts,
  type ReliabilityReport,
  ReliabilityTally,
  reliabilityReportDirVariable,
} from "./reliability-tally.js";
export { seededRandom } from "./seeded-random.js";
