/**
 * What a scripted model answers when a question asks for something it cannot read (no
 * ticker it knows, say): plainly that the offline mode only knows its sample questions,
 * never a confident answer about something else.
 *
 * @example
 * onlySampleQuestions("this question names no stock ticker", ["How did NVDA do in 2024?"]);
 */
export function onlySampleQuestions(reason: string, examples: readonly string[]): string {
  return [
    `The offline demo's scripted model only knows its sample questions, and ${reason}.`,
    `Try ${examples.map((example) => `"${example}"`).join(" or ")}, with your own tickers and dates, or run without --offline to ask a real model.`,
  ].join("\n");
}
