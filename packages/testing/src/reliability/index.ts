export {
  type ReliabilityCounts,
  type ReliabilityReport,
  ReliabilityTally,
  reliabilityReportDirVariable,
} from "./reliability-tally.js";
