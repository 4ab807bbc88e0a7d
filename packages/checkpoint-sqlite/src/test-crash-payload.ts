/**
 * What a writer in a crash test puts at `seq`: a payload whose size varies (up to about
 * 100 kB, so some writes span many database pages) and whose content tells whether it was
 * stored whole.
 */
export function crashPayload(seq: number): { text: string; length: number } {
  const length = ((seq * 7919) % 25) * 4096 + (seq % 13);
  return { text: String(seq % 10).repeat(length), length };
}
