/**
 * A signed percentage with two decimals, e.g. `+12.34%`: how the apps' reports and their
 * offline scripted models write a return.
 */
export function percent(value: number): string {
  return `${value >= 0 ? "+" : ""}${value.toFixed(2)}%`;
}
