export type {
  ChapterStartEvent,
  ChapterWritingEvent,
  ChapterWrittenEvent,
  CritiqueEvent,
  CritiqueQueriesEvent,
  DeepSearchEvent,
  DeepSearchProgressEvent,
  DeepSearchReporter,
  DoneEvent,
  PlannedEvent,
  SearchEvent,
} from "./deep-search-event.js";
