/**
 * Plumbing of `@framework/core`, shared with the other `@framework` packages: the stream
 * channel, the registry file and its atomic write, the marker of live tool sources, tool
 * records, abortable waits and deprecation warnings.
 *
 * Unstable: anything here may change or go away in any release, minor or patch. Build on the
 * root export (`@framework/core`) instead; if you need something from here, open an issue.
 *
 * @packageDocumentation
 */
export { EventChannel } from "../agent/event-channel.js";
export { warnDeprecated } from "../log/deprecation-warning.js";
export { abortableDelay } from "../model/retry.js";
export { writeFileAtomically } from "../registry/atomic-write.js";
export { liveToolSourceMarker } from "../registry/live-tool-source.js";
export { RegistryFile } from "../registry/registry-file.js";
export { createToolRecord } from "../tool/tool-record.js";
