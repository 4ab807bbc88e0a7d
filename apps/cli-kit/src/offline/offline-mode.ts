/**
 * What an app's `--offline` loader starts: fake upstreams and a scripted model, and the
 * environment that points the app at them. Apps load it with a dynamic `import()`, so the
 * test doubles behind it never load on a real run.
 */
export interface OfflineServices {
  /** `LLM_API_URL`, `LLM_API_KEY`, `TAVILY_API_URL`... set to the fakes. */
  environment: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The first line of every offline run, so nobody mistakes the demo for analysis. It is the
 * first line of standard output, or of standard error when standard output must stay clean
 * (`--json`).
 */
export const sampleDataHeadline =
  "OFFLINE DEMO with sample data: what follows comes from sample data and a scripted model, not real market data, papers or advice.";

/** What the offline mode says next, on standard error. */
export const offlineNotice = [
  "A scripted model stands in for the LLM, and fake arXiv, Tavily, Yahoo Finance, CoinDesk and",
  "VCI services on 127.0.0.1 serve sample data. The HTTP clients, tools, graph and charts are",
  "the real ones. The scripted model only knows the apps' sample questions.",
].join("\n");
