import { redactSecrets } from "../log/redact.js";

/** Options of {@link describeErrorBody}. */
export interface DescribeErrorBodyOptions {
  /** Longest description returned, in characters, before `...` (default 300). */
  maxLength?: number;
}

const defaultMaxLength = 300;
// Deep enough for every documented envelope (`{ detail: { error } }`, `{ error: { message } }`,
// Google's `[{ error: { message } }]`); a body nested deeper is shown as JSON.
const maxDepth = 4;

// The fields providers put an error's explanation in, most specific first. `error_description`
// is OAuth's; `description` inside Yahoo's `chart` or `finance` envelope; `Err` CoinDesk's;
// `msg` FastAPI's validation items'.
const messageKeys = [
  "error",
  "Err",
  "detail",
  "message",
  "msg",
  "error_message",
  "errorMessage",
  "error_description",
  "description",
  "errors",
  "title",
  "chart",
  "finance",
] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The explanation a parsed JSON error body holds, or `undefined` when it names none. */
function messageOf(value: unknown, depth: number): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  if (depth >= maxDepth) return undefined;
  if (Array.isArray(value)) {
    const messages = value
      .map((item) => messageOf(item, depth + 1))
      .filter((message) => message !== undefined);
    return messages.length > 0 ? messages.join("; ") : undefined;
  }
  if (!isRecord(value)) return undefined;
  // OAuth: `{ error: "invalid_client", error_description: "..." }`; the code alone says little.
  if (typeof value.error === "string" && typeof value.error_description === "string") {
    return `${value.error}: ${value.error_description}`;
  }
  // Spring Boot: `{ status, error: "Bad Request", message: "..." }`; `error` is the reason phrase.
  if (typeof value.error === "string" && typeof value.message === "string" && value.message) {
    return value.message;
  }
  // FastAPI validation items: `{ loc: ["body", "query"], msg: "Field required" }`.
  if (Array.isArray(value.loc) && typeof value.msg === "string") {
    return `${value.loc.join(".")}: ${value.msg}`;
  }
  for (const key of messageKeys) {
    const message = messageOf(value[key], depth + 1);
    if (message !== undefined) return message;
  }
  return undefined;
}

/** The readable part of an HTML error page (a proxy's 502): its title, else its text. */
function htmlText(html: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1]?.trim();
  if (title) return title;
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .trim();
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * One line saying what an upstream's error answer says, whatever its shape: OpenAI's
 * `{ error: { message } }`, `{ error: "..." }`, `{ message }`, `{ detail }` (a string, an
 * object such as Tavily's `{ detail: { error } }`, or FastAPI's list of validation items),
 * OAuth's `{ error, error_description }`, RFC 7807's `{ title, detail }`, `{ errors: [...] }`,
 * CoinDesk's `{ Err: { message } }`, an HTML error page, or plain text. `body` is the raw
 * text or the parsed JSON. A JSON body with no recognisable message is shown as compact JSON.
 * The result has secrets redacted, whitespace collapsed and is cut to `maxLength`;
 * `undefined` when the body is empty.
 */
export function describeErrorBody(
  body: unknown,
  { maxLength = defaultMaxLength }: DescribeErrorBodyOptions = {},
): string | undefined {
  let text: string | undefined;
  if (typeof body === "string") {
    const trimmed = body.trim();
    const parsed =
      trimmed.startsWith("{") || trimmed.startsWith("[") || trimmed.startsWith('"')
        ? parseJson(trimmed)
        : { ok: false as const };
    if (parsed.ok) text = messageOf(parsed.value, 0) ?? trimmed;
    else text = /^\s*</.test(trimmed) ? htmlText(trimmed) : trimmed;
  } else if (body !== undefined && body !== null) {
    text = messageOf(body, 0) ?? JSON.stringify(body);
  }
  const oneLine = redactSecrets(text ?? "")
    .replace(/\s+/g, " ")
    .trim();
  if (oneLine === "") return undefined;
  return oneLine.length > maxLength ? `${oneLine.slice(0, maxLength)}...` : oneLine;
}

/**
 * `HTTP <status> <statusText>: <what the body says>`, the line every tool reports a failed
 * upstream answer with; the body part is left out when the body says nothing more than the
 * status line (a 429 whose body is "Too Many Requests").
 */
export function describeHttpFailure(
  response: { status: number; statusText?: string },
  body: unknown,
  options?: DescribeErrorBodyOptions,
): string {
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  const detail = describeErrorBody(body, options);
  const adds = detail !== undefined && !status.toLowerCase().includes(detail.toLowerCase());
  return adds ? `${status}: ${detail}` : status;
}
