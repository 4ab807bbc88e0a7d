/** An author line of a sample paper. */
export interface ArxivSampleAuthor {
  name: string;
  /** Rendered as `<arxiv:affiliation>` inside `<author>`. */
  affiliation?: string;
}

/** A paper the fake arXiv server can return. Texts are written into the feed as they are. */
export interface ArxivSamplePaper {
  /** Id with version, new style (`2210.03629v3`) or old style (`cs/0306112v1`). */
  id: string;
  /** The title as the feed carries it; arXiv keeps the submitter's line breaks. */
  title: string;
  /** The abstract on one line; the feed wraps it the way arXiv does. */
  summary: string;
  authors: ArxivSampleAuthor[];
  /** First version, ISO 8601 with offset. */
  published: string;
  /** Latest version, ISO 8601 with offset. */
  updated: string;
  primaryCategory: string;
  /** All categories, the primary one first. */
  categories: string[];
  comment?: string;
  journalRef?: string;
  doi?: string;
}

/**
 * Invented papers about LLM agents and tool use, shaped like real arXiv records: new-style and
 * old-style ids, a title spread over lines with extra spaces, long author lists, affiliations,
 * non-ASCII names and markup characters that the feed must escape. None of them is a real
 * paper, even where an id happens to exist on arXiv.
 */
export const arxivSamplePapers: readonly ArxivSamplePaper[] = [
  {
    id: "2210.03629v3",
    title: "Interleaving Reasoning Traces and Tool Actions in Language Model Agents",
    summary:
      "Large language models can write step-by-step reasoning and can also emit actions for external tools, but the two abilities are usually studied apart. We prompt a single model to alternate between short reasoning traces and tool actions such as search and lookup, so that each observation can revise the plan that produced it. On multi-hop question answering and fact verification the interleaved agent hallucinates less than reasoning-only prompting, and on two interactive decision-making benchmarks it outperforms imitation and reinforcement learning baselines while using one or two in-context examples. The traces also make the agent's behaviour easier for people to inspect and correct.",
    authors: [
      { name: "Mira Castellanos" },
      { name: "Devansh Rao" },
      { name: "Elena Varga" },
      { name: "Tobias Lindqvist" },
      { name: "Hana Okafor" },
    ],
    published: "2022-10-06T01:00:32Z",
    updated: "2023-03-10T01:00:32Z",
    primaryCategory: "cs.CL",
    categories: ["cs.CL", "cs.AI", "cs.LG"],
    comment: "v3 is the camera-ready version; 33 pages, 9 figures",
  },
  {
    id: "2302.04761v1",
    title: "Self-Supervised Learning of API Calls for Tool-Augmented Language Models",
    summary:
      "Language models struggle with arithmetic, fresh facts and date calculations that simple external tools solve reliably. We describe a self-supervised procedure in which a model annotates its own pretraining text with candidate API calls, executes them, and keeps only the calls whose results lower its loss on the following tokens. The resulting model decides by itself when to call a calculator, a question-answering system, a search engine, a translator or a calendar, and how to use the returned values. It improves zero-shot results on a range of downstream tasks without losing its core language modelling ability.",
    authors: [
      { name: "Lukas Brenner" },
      { name: "Aiko Tanaka" },
      { name: "Rafael Moreau" },
      { name: "Priya Natarajan" },
    ],
    published: "2023-02-09T16:49:57Z",
    updated: "2023-02-09T16:49:57Z",
    primaryCategory: "cs.CL",
    categories: ["cs.CL"],
  },
  {
    id: "2305.16291v2",
    title: "Lifelong Skill Libraries for Embodied Agents Built on Large Language Models",
    summary:
      "We present an embodied agent that keeps exploring an open-ended game world, writes new skills as executable programs, and stores the ones that succeed in a growing library. An automatic curriculum proposes tasks of increasing difficulty, and an iterative prompting loop feeds back environment errors and self-verification so that the model can repair its programs. Skills retrieved from the library compose into more complex behaviour, which lets the agent reach milestones several times faster than prior methods and transfer to new worlds without retraining.",
    authors: [
      { name: "Sofia Lindgren", affiliation: "Northbridge Institute of Technology" },
      { name: "Kwame Asante", affiliation: "Northbridge Institute of Technology" },
      { name: "Yuki Morimoto" },
    ],
    published: "2023-05-25T17:59:49Z",
    updated: "2023-10-19T17:28:56Z",
    primaryCategory: "cs.AI",
    categories: ["cs.AI", "cs.CL", "cs.LG"],
    comment: "Project page with videos and code available",
  },
  {
    id: "2303.11366v4",
    title: "Verbal Self-Reflection as a Learning Signal for Language Agents",
    summary:
      "Fine-tuning a language agent on trial-and-error experience is expensive. Instead of updating weights, our agents reflect in natural language on the feedback from a failed attempt and keep these reflections in an episodic memory that conditions the next attempt. The feedback can be a scalar reward, a unit-test result or free-form text from the environment. Reflection improves success rates on sequential decision-making, multi-step reasoning and code generation tasks, and an ablation shows which kinds of feedback and memory matter most.",
    authors: [{ name: "Noah Feldman" }, { name: "Ines Carvalho" }, { name: "Arjun Mehta" }],
    published: "2023-03-20T18:08:50Z",
    updated: "2023-10-10T05:21:45Z",
    primaryCategory: "cs.AI",
    categories: ["cs.AI", "cs.CL", "cs.LG"],
    comment: "Accepted at a major machine learning conference",
  },
  {
    id: "2307.16789v2",
    title: "Scaling Tool Use to Thousands of Real-World REST APIs",
    summary:
      "Open instruction-tuned models still lag behind proprietary ones when they have to call external APIs. We collect more than sixteen thousand REST APIs from a public marketplace, generate instructions that need one or several of them, and annotate solution paths with a depth-first search over reasoning and API calls. A model fine-tuned on this data, paired with a neural API retriever, follows complex instructions and generalises to unseen APIs. We also release an automatic evaluator that estimates pass rates and compares solution paths.",
    authors: [
      { name: "Chen Wei" },
      { name: "Laura Becker" },
      { name: "Omar Haddad" },
      { name: "Min-jun Park" },
      { name: "Greta Nilsson" },
      { name: "Tomasz Kowalski" },
    ],
    published: "2023-07-31T15:56:53Z",
    updated: "2023-10-03T14:45:15Z",
    primaryCategory: "cs.AI",
    categories: ["cs.AI", "cs.CL", "cs.LG"],
  },
  {
    id: "2308.03688v2",
    title: "A Benchmark Suite for Evaluating LLMs as Autonomous Agents",
    summary:
      "Language models are increasingly deployed as agents that act in interactive environments, yet there is no common yardstick for this ability. We introduce a benchmark of eight environments covering operating-system shells, databases, knowledge graphs, card games, lateral-thinking puzzles, household tasks, web shopping and web browsing. Evaluating more than twenty commercial and open models shows a large gap between the strongest proprietary models and open models of comparable size, and points to long-horizon reasoning, decision-making and instruction following as the main obstacles.",
    authors: [
      { name: "Xu Ling" },
      { name: "Benjamin Ortiz" },
      { name: "Aleksandra Nowak" },
      { name: "Kenji Watanabe" },
      { name: "Fatima Zahra El Idrissi" },
      { name: "Daniel Hughes" },
      { name: "Mei Chen" },
      { name: "Oskar Jensen" },
      { name: "Ravi Shankar" },
      { name: "Lucia Romano" },
      { name: "Thabo Nkosi" },
      { name: "Hye-jin Seo" },
    ],
    published: "2023-08-07T16:08:11Z",
    updated: "2023-10-25T12:46:02Z",
    primaryCategory: "cs.AI",
    categories: ["cs.AI", "cs.CL", "cs.LG"],
    comment: "55 pages",
  },
  {
    id: "2309.07864v3",
    title:
      "Tool-Augmented   Language Models:\n  A Survey of  Methods,   Benchmarks and\n      Open Problems",
    summary:
      "Equipping language models with tools such as search engines, code interpreters, calculators and domain APIs has become a central way to extend what they can do. This survey organises the literature along four questions: how a model decides that a tool is needed, how it selects among many tools, how it composes calls into plans, and how the results are fed back into generation. We compare training-free prompting with fine-tuning approaches, summarise the benchmarks used to evaluate tool use, and close with open problems in robustness, efficiency, safety and evaluation.",
    authors: [{ name: "Amara Eze" }, { name: "Jonas Weber" }, { name: "Li Na" }],
    published: "2023-09-14T17:12:03Z",
    updated: "2024-02-02T09:31:40Z",
    primaryCategory: "cs.CL",
    categories: ["cs.CL", "cs.AI"],
    comment: "Survey, 41 pages; a paper list is maintained online",
  },
  {
    id: "2308.08155v2",
    title: "Conversational Multi-Agent Frameworks for Composable LLM Applications",
    summary:
      "Many LLM applications are easier to build as a conversation among several agents than as one long prompt. We present an open-source framework in which developers define agents with different roles, capabilities and tools, and wire them into conversation patterns that may include humans. Agents can write and execute code, call functions and critique each other's output. Case studies in mathematics, coding, question answering, operations research and entertainment show that the multi-agent designs are short to write and often outperform single-agent baselines.",
    authors: [
      { name: "Rosa Delgado" },
      { name: "Ethan Brooks" },
      { name: "Yasmin Haddad" },
      { name: "Pavel Novak" },
    ],
    published: "2023-08-16T05:57:52Z",
    updated: "2023-10-03T21:19:35Z",
    primaryCategory: "cs.AI",
    categories: ["cs.AI", "cs.CL", "cs.MA"],
    comment: "43 pages",
  },
  {
    id: "2401.05459v2",
    title: "Memory Architectures for Long-Horizon Language Agents",
    summary:
      "Agents built on language models forget what happened outside their context window, which limits tasks that span hundreds of steps or several sessions. We compare memory designs for such agents, from rolling summaries and vector retrieval to structured scratchpads and reflection-based consolidation, within one controlled testbed. Retrieval with periodic consolidation gives the best trade-off between task success and token cost, while naive summarisation loses details that later tool calls depend on.",
    authors: [{ name: "Hannah Schultz" }, { name: "Diego Fernández" }],
    published: "2024-01-10T09:15:27Z",
    updated: "2024-03-02T11:40:03Z",
    primaryCategory: "cs.CL",
    categories: ["cs.CL", "cs.AI"],
  },
  {
    id: "2402.01030v4",
    title: "Executable Code as a Unified Action Space for LLM Agents",
    summary:
      "LLM agents usually act by emitting JSON or text in a fixed format, which limits the actions they can take and how they can combine them. We let agents act by writing executable Python instead: a code interpreter runs each action, returns its output or error, and the agent revises its next action accordingly. Across API-Bank style benchmarks and a new multi-tool benchmark, code actions succeed more often than text or JSON actions and need fewer turns. We also release an instruction-tuning dataset of multi-turn code-action interactions.",
    authors: [
      { name: "Julia Hoffmann" },
      { name: "Sanjay Iyer" },
      { name: "Emeka Obi" },
      { name: "Clara Duarte" },
      { name: "Viktor Petrov" },
    ],
    published: "2024-02-01T21:38:58Z",
    updated: "2024-06-07T03:44:14Z",
    primaryCategory: "cs.CL",
    categories: ["cs.CL", "cs.AI"],
    comment: "Accepted to a machine learning conference; code and data released",
  },
  {
    id: "2310.06770v3",
    title:
      "Can Language Models Resolve Real Repository Issues? A Software Engineering Agent Benchmark",
    summary:
      "We build a benchmark of software engineering tasks drawn from real issues and pull requests in popular open-source Python repositories. Given a codebase and an issue description, a model or agent must edit the code so that the repository's tests pass. Solving the tasks takes understanding and coordinating changes across functions, classes and files, interacting with an execution environment and handling long contexts. The best systems we evaluate resolve only a small fraction of the issues, which leaves ample room for agents that navigate and test code.",
    authors: [
      { name: "Marcus Lee" },
      { name: "Anika Sharma" },
      { name: "Florian Dubois" },
      { name: "Nadia Rahman" },
    ],
    published: "2023-10-10T17:52:44Z",
    updated: "2024-04-05T14:22:10Z",
    primaryCategory: "cs.SE",
    categories: ["cs.SE", "cs.CL", "cs.LG"],
    journalRef: "Proceedings of a learning representations conference, 2024",
  },
  {
    id: "2404.11584v1",
    title: "Safety & Sandboxing for Tool-Using Agents: Threat Models and Mitigations",
    summary:
      "Agents that call tools can be steered by content they read, such as a web page or an email that contains injected instructions. We lay out threat models for tool-using LLM agents, covering prompt injection through tool outputs, over-privileged credentials and irreversible actions, and evaluate mitigations including sandboxed execution, least-privilege tool scopes, confirmation steps for side effects and output filtering. Sandboxing and scoped credentials remove most of the attacks we reproduce, at a modest cost (<5 points) in task success.",
    authors: [
      { name: "Grace Whitfield", affiliation: "Harbor Lane Security Lab" },
      { name: "Ibrahim Yusuf", affiliation: "Harbor Lane Security Lab" },
      { name: "Ana Kovač", affiliation: "University of Westfield" },
    ],
    published: "2024-04-17T17:42:15Z",
    updated: "2024-04-17T17:42:15Z",
    primaryCategory: "cs.CR",
    categories: ["cs.CR", "cs.AI", "cs.CL"],
    doi: "10.48550/arXiv.2404.11584",
  },
  {
    id: "2406.12045v1",
    title: "Function Calling Under Distribution Shift: Robustness of Structured Tool Invocation",
    summary:
      "Function calling lets a language model return structured arguments for developer-defined tools, but benchmarks rarely test what happens when tool schemas, descriptions or user phrasing change. We perturb function signatures, rename parameters, add distractor tools and paraphrase requests, and measure how often models still produce valid and correct calls. Accuracy drops sharply under renamed parameters and distractors, and we show that schema-aware decoding and a short validation-and-retry loop recover much of the loss.",
    authors: [{ name: "Oliver Grant" }, { name: "Tanvi Kulkarni" }, { name: "Mateo Silva" }],
    published: "2024-06-17T18:01:09Z",
    updated: "2024-06-17T18:01:09Z",
    primaryCategory: "cs.LG",
    categories: ["cs.LG", "cs.CL"],
  },
  {
    id: "2411.00927v2",
    title: "Planning with Retrieval: Grounding Multi-Step Agent Plans in Search Results",
    summary:
      "Language agents that plan several steps ahead often commit to plans built on facts they made up. We interleave planning with retrieval: before expanding a plan step, the agent issues search queries, ranks the results and conditions the step on cited passages. On open-domain research tasks, grounded planning reduces unsupported claims and improves answer accuracy, and the citations let users check each step of the agent's reasoning.",
    authors: [{ name: "Zoë Brandt" }, { name: "José Miguel Ortega" }, { name: "Søren Dahl" }],
    published: "2024-11-01T12:30:00Z",
    updated: "2025-01-15T08:12:45Z",
    primaryCategory: "cs.IR",
    categories: ["cs.IR", "cs.AI", "cs.CL"],
  },
  {
    id: "cs/0306112v1",
    title: "A Mediator Architecture for Software Agents Invoking Heterogeneous Web Services",
    summary:
      "Software agents that act on behalf of users must invoke services whose interfaces, message formats and failure modes differ widely. We describe a mediator that wraps each web service in a declarative capability description, lets a planning agent select and sequence service calls, and translates between the agent's internal representation and each service's messages. A prototype coordinating travel booking, currency conversion and calendar services shows that new services can be added without changing the agent's planner.",
    authors: [{ name: "Helmut Brandauer" }, { name: "Catherine O'Neill" }],
    published: "2003-06-24T14:02:11-04:00",
    updated: "2003-06-24T14:02:11-04:00",
    primaryCategory: "cs.MA",
    categories: ["cs.MA", "cs.AI", "cs.NI"],
    comment: "12 pages, 4 figures",
  },
];
