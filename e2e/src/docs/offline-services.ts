import {
  type FakeLLMServer,
  type FakeServer,
  type OpenAIChatRequestBody,
  type ScriptedReplyValue,
  startFakeArxivServer,
  startFakeCoinDeskServer,
  startFakeLLMServer,
  startFakeTavilyServer,
  startFakeYahooServer,
} from "@framework/testing";
import { SignJWT } from "jose";

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  minItems?: number;
  minimum?: number;
  minLength?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
};

/** The smallest plain value a JSON Schema accepts, for answers a snippet asks to be typed. */
export function sampleOf(schema: Schema): unknown {
  if ("const" in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  const variant = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (variant) return sampleOf(variant);
  const type = Array.isArray(schema.type)
    ? schema.type.find((name) => name !== "null")
    : schema.type;
  switch (type) {
    case "object":
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [key, sampleOf(value)]),
      );
    case "array":
      return Array.from({ length: schema.minItems ?? 1 }, () => sampleOf(schema.items ?? {}));
    case "integer":
    case "number":
      return schema.minimum ?? 1;
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return "sample".padEnd(schema.minLength ?? 0, "!");
  }
}

// What core's structured output puts in the system prompt of a model that does not enforce
// a response format: the schema on the line after this sentence.
const schemaInPrompt = /matching this JSON Schema, with no other text:\n(.+)/;

// A plain answer is written as one numbered block with a line under it: the deep-search
// planner reads chapters (and its critic, queries) from numbered lines, and any other caller
// just shows the text.
const plainAnswer = "1. An offline answer from the fake model\nsample search query";

// The tools the offline model calls, once, before it answers, so a snippet's tools run against
// the fakes, with arguments the fakes know. Only tools that read: one that acts (a booking, a
// transfer) needs an approval no test gives, so it is never called.
const readingTools: Record<string, Record<string, unknown>> = {
  get_weather: { city: "Hanoi" },
  paper_research: { topic: "tool-using agents", max_results: 2 },
  fetch_stock_data: { symbol: "AAPL", start_date: "2024-01-02", end_date: "2024-02-01" },
  fetch_btc_market_data: {},
  search_api: { query: "bitcoin ETF flows" },
  get_current_time: {},
};

/**
 * The answer of the offline model: first a call of the first reading tool offered, if no tool
 * ran yet in the conversation; then a value of the requested schema when the request asks for
 * one (as a response format or in the prompt), else a short numbered text.
 */
export function offlineAnswer(body: OpenAIChatRequestBody): ScriptedReplyValue {
  const toolRan = body.messages.some((message) => message.role === "tool");
  const tool = body.tools
    ?.map((offered) => offered.function.name)
    .find((name) => name in readingTools);
  if (tool && !toolRan) return { toolCalls: [{ name: tool, arguments: readingTools[tool] ?? {} }] };
  const format = body.response_format as { json_schema?: { schema?: Schema } } | undefined;
  const system = body.messages.find((message) => message.role === "system")?.content;
  const inPrompt = typeof system === "string" ? schemaInPrompt.exec(system)?.[1] : undefined;
  const schema = format?.json_schema?.schema ?? (inPrompt ? JSON.parse(inPrompt) : undefined);
  return schema ? JSON.stringify(sampleOf(schema)) : plainAnswer;
}

/** The fakes a README snippet may reach, and the environment that points the real clients at them. */
export interface OfflineServices {
  llm: FakeLLMServer;
  environment: Record<string, string>;
  close(): Promise<void>;
}

// The identity provider of the authentication snippets: a token for "alice" and its secret,
// made fresh per run so no fixed credential is written anywhere.
async function signedToken(secret: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject("alice")
    .setIssuer("https://id.example.com")
    .setAudience("research-agent")
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(secret));
}

/** Starts the fake model and upstreams on 127.0.0.1. */
export async function startOfflineServices(): Promise<OfflineServices> {
  const apiKey = "sk-readme-snippets-offline";
  const servers: FakeServer[] = [];
  const started = async <T extends FakeServer>(server: Promise<T>): Promise<T> => {
    const value = await server;
    servers.push(value);
    return value;
  };
  const close = async () => {
    await Promise.all(servers.map((server) => server.close()));
  };
  try {
    const llm = await started(startFakeLLMServer({ defaultReply: offlineAnswer, apiKey }));
    const arxiv = await started(startFakeArxivServer());
    const tavily = await started(startFakeTavilyServer());
    const coindesk = await started(startFakeCoinDeskServer());
    const yahoo = await started(startFakeYahooServer());
    const authSecret = crypto.randomUUID() + crypto.randomUUID();
    return {
      llm,
      environment: {
        LLM_API_URL: llm.baseURL,
        LLM_API_KEY: apiKey,
        LLM_MODEL: "offline-model",
        ARXIV_API_URL: arxiv.url,
        TAVILY_API_URL: tavily.url,
        TAVILY_API_KEY: tavily.apiKey,
        COINDESK_API_URL: coindesk.url,
        YAHOO_FINANCE_URL: yahoo.url,
        AUTH_SECRET: authSecret,
        USER_TOKEN: await signedToken(authSecret),
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
