/** One search result as the Tavily API sends it. */
export interface FakeTavilyResult {
  title: string;
  url: string;
  content: string;
  score: number;
  raw_content: string | null;
}

interface Topic {
  keywords: RegExp;
  answer: string;
  results: ReadonlyArray<Omit<FakeTavilyResult, "raw_content">>;
}

// Canned pages on invented example.com hosts: realistic enough for an agent to reason over,
// never mistakable for a real citation.
const crypto: Topic = {
  keywords: /bitcoin|\bbtc\b|crypto|ethereum|\beth\b|blockchain|stablecoin|solana/i,
  answer:
    "Bitcoin trades near $97,000 after a week of steady spot-ETF inflows; analysts tie the move to expectations of lower interest rates, while on-chain data show long-term holders taking some profit.",
  results: [
    {
      title: "Bitcoin climbs as spot ETF inflows extend winning streak",
      url: "https://markets.example.com/crypto/bitcoin-etf-inflows",
      content:
        "Bitcoin rose about 1.2% on the day to trade near $97,200, its fifth straight session of gains, as US spot bitcoin ETFs recorded net inflows for a seventh consecutive day.",
      score: 0.94,
    },
    {
      title: "On-chain data: long-term holders trim positions into the rally",
      url: "https://research.example.com/onchain/long-term-holders",
      content:
        "Coins dormant for more than a year moved at the fastest pace in three months, suggesting long-term holders are realising profits while short-term demand absorbs the supply.",
      score: 0.88,
    },
    {
      title: "Ethereum lags bitcoin as network fees fall to multi-year lows",
      url: "https://markets.example.com/crypto/ethereum-fees",
      content:
        "Ether gained 0.4% while bitcoin dominance rose above 57%. Average transaction fees on the Ethereum main chain dropped after recent scaling upgrades moved activity to layer-2 networks.",
      score: 0.79,
    },
    {
      title: "Crypto volatility index near yearly low despite price gains",
      url: "https://data.example.com/indices/crypto-volatility",
      content:
        "Implied volatility on 30-day bitcoin options fell to 46%, close to its low for the year, as options traders priced a calmer path for prices into the next month.",
      score: 0.71,
    },
    {
      title: "Regulators publish draft rules for stablecoin reserves",
      url: "https://policy.example.com/stablecoin-reserve-rules",
      content:
        "The draft requires issuers to hold reserves in cash and short-dated government bills and to publish monthly attestations; the consultation runs for 90 days.",
      score: 0.63,
    },
  ],
};

const ai: Topic = {
  keywords:
    /\bai\b|artificial intelligence|\bllms?\b|language model|machine learning|agent|neural|\bgpt\b|transformer/i,
  answer:
    "Recent AI progress centres on tool-using agents and smaller, cheaper language models; companies report productivity gains in coding and customer support, while evaluation and reliability remain open problems.",
  results: [
    {
      title: "Tool-using agents move from demos to production",
      url: "https://tech.example.com/ai/tool-using-agents-production",
      content:
        "Enterprises are deploying LLM agents that call search, databases and internal APIs in a loop. Teams report the biggest wins where tasks are well scoped and every tool call is logged and checked.",
      score: 0.93,
    },
    {
      title: "Small language models close the gap on reasoning benchmarks",
      url: "https://research.example.com/papers/small-models-reasoning",
      content:
        "Models under 10 billion parameters, trained on curated synthetic data, now score within a few points of much larger models on maths and coding benchmarks at a fraction of the serving cost.",
      score: 0.87,
    },
    {
      title: "Survey: developers using AI assistants ship code faster",
      url: "https://tech.example.com/surveys/ai-coding-assistants",
      content:
        "In a survey of 2,000 developers, 68% said AI assistants shortened routine tasks; respondents also flagged review overhead and subtle bugs in generated code.",
      score: 0.78,
    },
    {
      title: "Why evaluating AI agents is harder than evaluating models",
      url: "https://blog.example.com/ai/evaluating-agents",
      content:
        "Agent quality depends on multi-step behaviour: recovering from tool errors, knowing when to stop, and not inventing results. Static benchmarks miss most of these failure modes.",
      score: 0.7,
    },
    {
      title: "Data-centre spending on AI accelerators keeps rising",
      url: "https://markets.example.com/tech/ai-capex",
      content:
        "Cloud providers guided to higher capital spending for the coming year, with most of the increase earmarked for AI accelerators, networking and power capacity.",
      score: 0.62,
    },
  ],
};

const markets: Topic = {
  keywords:
    /stock|market|s&p|nasdaq|dow|equit|\bfed\b|federal reserve|interest rate|inflation|earnings|bond|yield|invest|financ|econom|\bgdp\b|shares|nvidia|apple|tesla|vn-?index/i,
  answer:
    "US stocks edged higher, with the S&P 500 up 0.4% and the Nasdaq up 0.7%, as softer inflation data lifted hopes of a rate cut; Treasury yields eased and technology shares led the gains.",
  results: [
    {
      title: "Stocks rise as cooler inflation revives rate-cut bets",
      url: "https://markets.example.com/equities/stocks-rise-inflation",
      content:
        "The S&P 500 gained 0.4% and the Nasdaq Composite 0.7% after consumer prices rose less than forecast. Futures now price roughly a 60% chance of a rate cut at the next Federal Reserve meeting.",
      score: 0.95,
    },
    {
      title: "Treasury yields slip after inflation report",
      url: "https://markets.example.com/rates/treasury-yields",
      content:
        "The 10-year Treasury yield fell 6 basis points to 4.18%, while the two-year yield, which tracks policy expectations, dropped 8 basis points.",
      score: 0.86,
    },
    {
      title: "Chipmakers lead technology shares higher",
      url: "https://markets.example.com/equities/chipmakers-rally",
      content:
        "Semiconductor stocks rose 1.8% as a group after a large chip designer raised its revenue guidance on strong data-centre demand; analysts lifted price targets across the sector.",
      score: 0.8,
    },
    {
      title: "Earnings season: most companies beat profit estimates",
      url: "https://research.example.com/earnings/season-scorecard",
      content:
        "Of the companies that have reported so far, 78% beat analysts' earnings estimates and 61% beat revenue estimates, above the five-year averages.",
      score: 0.72,
    },
    {
      title: "Asian markets mixed; Vietnam's VN-Index extends gains",
      url: "https://markets.example.com/asia/markets-mixed",
      content:
        "Japan's Nikkei slipped 0.3% on a stronger yen, while Vietnam's VN-Index rose 0.9% on foreign buying of bank and technology shares.",
      score: 0.64,
    },
  ],
};

const general: Topic = {
  keywords: /.*/,
  answer:
    "Several recent sources cover this topic; the most relevant ones agree on the main points and differ mainly in detail and emphasis.",
  results: [
    {
      title: "An overview of the topic and its recent developments",
      url: "https://encyclopedia.example.com/overview",
      content:
        "This overview summarises the background, the main recent developments and the points on which experts still disagree, with links to primary sources.",
      score: 0.82,
    },
    {
      title: "Explainer: what changed this year and why it matters",
      url: "https://news.example.com/explainers/what-changed",
      content:
        "A short explainer of the year's main changes, the people and organisations involved, and what observers expect to happen next.",
      score: 0.74,
    },
    {
      title: "Frequently asked questions",
      url: "https://help.example.com/faq",
      content:
        "Answers to common questions, including definitions of the key terms and pointers to further reading for readers who want more detail.",
      score: 0.66,
    },
    {
      title: "Timeline of key events",
      url: "https://news.example.com/timelines/key-events",
      content:
        "A dated list of the key events from the beginning to the most recent update, each with a one-line summary and a source.",
      score: 0.58,
    },
    {
      title: "Discussion: opinions and open questions",
      url: "https://forum.example.com/threads/open-questions",
      content:
        "A discussion thread where practitioners compare experiences and list the questions that remain open.",
      score: 0.51,
    },
  ],
};

const topics: readonly Topic[] = [crypto, ai, markets, general];

function topicOf(query: string): Topic {
  return topics.find((topic) => topic.keywords.test(query)) ?? general;
}

/** The canned answer for a query, chosen by its keywords (crypto, AI, markets, or general). */
export function cannedAnswer(query: string): string {
  return topicOf(query).answer;
}

/** The canned results for a query, chosen by its keywords, most relevant first. */
export function cannedResults(query: string): FakeTavilyResult[] {
  return topicOf(query).results.map((result) => ({ ...result, raw_content: null }));
}
