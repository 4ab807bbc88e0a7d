import { describeErrorBody } from "../http/describe-error-body.js";

/**
 * Keeps the bodies of failed answers for the errors the `openai` client builds from them.
 * The client reads only `{ "error": ... }` from an error body, so a provider answering
 * `{ "message": ... }`, `{ "detail": ... }` or another shape would be reported as "(no body)";
 * the body is therefore read here, on a copy, and looked up by the answer's headers, which
 * the client hands on to its error unchanged.
 */
export class OpenAIErrorBodies {
  readonly #bodies = new WeakMap<Headers, string>();

  /** `fetchImpl`, with the body of every answer that is not a success remembered. */
  wrap(fetchImpl: typeof globalThis.fetch): typeof globalThis.fetch {
    return async (input, init) => {
      const response = await fetchImpl(input, init);
      if (!response.ok) {
        try {
          this.#bodies.set(response.headers, await response.clone().text());
        } catch {
          // The body broke off; the client reads the original and reports that itself.
        }
      }
      return response;
    };
  }

  /**
   * What the provider said in the answer behind `error` (an `openai` `APIError`): its body,
   * whatever the shape; `undefined` when the body was empty. Without a recorded body (an
   * error event inside a stream), the error object the client parsed, else the client's own
   * message without the status it starts with.
   */
  describe(error: {
    headers?: Headers | undefined;
    error?: unknown;
    message: string;
  }): string | undefined {
    const body = error.headers && this.#bodies.get(error.headers);
    if (body !== undefined) return describeErrorBody(body);
    return describeErrorBody(error.error) ?? error.message.replace(/^\d{3}\s+/, "");
  }
}
