/**
 * Plumbing of `@framework/tools-deepsearch`: the parsers the workflow's nodes read the model's
 * outlines and critique queries with.
 *
 * Unstable: anything here may change or go away in any release, minor or patch. Build on the
 * root export (`@framework/tools-deepsearch`) instead.
 *
 * @packageDocumentation
 */
export { parseCritiqueQueries } from "../parse/critique-queries.js";
export { type ChapterOutline, parseChapterOutline, parseOutline } from "../parse/outline.js";
