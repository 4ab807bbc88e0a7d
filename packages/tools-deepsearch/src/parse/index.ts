export { parseCritiqueQueries } from "./critique-queries.js";
export { type ChapterOutline, parseChapterOutline, parseOutline } from "./outline.js";
