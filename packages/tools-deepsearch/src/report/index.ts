export {
  type CitedNotes,
  citeNotes,
  formatSources,
  type SourcedNote,
} from "./cite-sources.js";
export { formatReport } from "./format-report.js";
