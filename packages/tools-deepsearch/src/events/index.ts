export type {
  ChapterStartEvent,
  ChapterWrittenEvent,
  CritiqueEvent,
  CritiqueQueriesEvent,
  DeepSearchEvent,
  DeepSearchProgressEvent,
  DoneEvent,
  PlannedEvent,
  SearchEvent,
} from "./deep-search-event.js";
