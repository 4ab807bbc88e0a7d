import {
  type FakeCoinDeskServer,
  type FakeLLMReply,
  type FakeLLMServer,
  type FakeServer,
  type FakeTavilyServer,
  startFakeArxivServer,
  startFakeCoinDeskServer,
  startFakeLLMServer,
  startFakeTavilyServer,
  startFakeVciServer,
  startFakeYahooServer,
} from "@framework/testing";

/** The model name the offline demo reports; it names what answers, a script. */
const offlineModelName = "scripted-analyst";

const offlineLlmKey = "offline-demo-llm-key";
const offlineCoinDeskKey = "offline-demo-coindesk-key";

/** Options of {@link startFakeServices}. */
export interface StartFakeServicesOptions {
  /** The scripted model: answers every chat request from what the request holds. */
  analyst: FakeLLMReply;
  /** The key the fake LLM accepts. Default: the key put in `environment`. */
  llmApiKey?: string;
  /** Delay of every fake LLM answer, e.g. to make concurrency visible in a test. */
  llmLatencyMs?: number;
  /**
   * The fake LLM sends `analyst`'s JSON answers as prose, as a model that ignores requests
   * for JSON does (`startFakeLLMServer`'s `answersInProse`). Default `false`.
   */
  answersInProse?: boolean;
}

/** Every upstream the apps call, faked on 127.0.0.1, and the environment pointing at them. */
export interface FakeServices {
  llm: FakeLLMServer;
  arxiv: FakeServer;
  tavily: FakeTavilyServer;
  coindesk: FakeCoinDeskServer;
  yahoo: FakeServer;
  vci: FakeServer;
  /**
   * `LLM_API_URL`, `LLM_API_KEY`, `TAVILY_API_URL`... set to the fakes and their keys, and
   * `FRAMEWORK_CHART_SUBTITLE` to "sample data, not market prices".
   */
  environment: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Starts the fakes of `@framework/testing` for every service the apps use: an OpenAI-compatible
 * LLM answered by `analyst`, arXiv, Tavily, CoinDesk, Yahoo Finance and VCI, each with its
 * recorded-shape sample data. Nothing is set in `process.env`: the offline mode applies
 * `environment` to itself, a test passes it to the app it spawns.
 */
export async function startFakeServices(options: StartFakeServicesOptions): Promise<FakeServices> {
  const started = await Promise.allSettled([
    startFakeLLMServer({
      defaultReply: options.analyst,
      apiKey: options.llmApiKey ?? offlineLlmKey,
      ...(options.llmLatencyMs === undefined ? {} : { latencyMs: options.llmLatencyMs }),
      answersInProse: options.answersInProse === true,
    }),
    startFakeArxivServer(),
    startFakeTavilyServer(),
    startFakeCoinDeskServer({ apiKey: offlineCoinDeskKey }),
    startFakeYahooServer(),
    startFakeVciServer(),
  ]);
  const servers = started.flatMap((result) =>
    result.status === "fulfilled" ? [result.value] : [],
  );
  const close = async () => {
    await Promise.all(servers.map((server) => server.close()));
  };
  const failure = started.find((result) => result.status === "rejected");
  if (failure) {
    await close();
    throw failure.reason;
  }
  const [llm, arxiv, tavily, coindesk, yahoo, vci] = servers as [
    FakeLLMServer,
    FakeServer,
    FakeTavilyServer,
    FakeCoinDeskServer,
    FakeServer,
    FakeServer,
  ];
  return {
    llm,
    arxiv,
    tavily,
    coindesk,
    yahoo,
    vci,
    environment: {
      LLM_API_URL: llm.baseURL,
      LLM_API_KEY: offlineLlmKey,
      LLM_MODEL: offlineModelName,
      ARXIV_API_URL: arxiv.url,
      TAVILY_API_URL: tavily.url,
      TAVILY_API_KEY: tavily.apiKey,
      COINDESK_API_URL: coindesk.url,
      COINDESK_API_KEY: offlineCoinDeskKey,
      YAHOO_FINANCE_URL: yahoo.url,
      VCI_API_URL: vci.url,
      // Charts drawn from the fakes' sample prices say so under their title.
      FRAMEWORK_CHART_SUBTITLE: "sample data, not market prices",
    },
    close,
  };
}
