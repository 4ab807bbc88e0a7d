import { api } from "../api/client.js";
import type { Assistant } from "../api/wire.js";

/** Every served agent and graph (`POST /assistants/search`). */
export const searchAssistants = (signal: AbortSignal) =>
  api.post<Assistant[]>("/assistants/search", { limit: 100 }, signal);

/** A new thread for `assistantId`'s runs. */
export const createThread = (assistantId: string) =>
  api.post<{ thread_id: string }>("/threads", {
    metadata: { studio: true, assistant_id: assistantId },
  });
