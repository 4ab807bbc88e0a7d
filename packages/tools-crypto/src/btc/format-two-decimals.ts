/**
 * Formats a number with exactly two decimals and no thousands separators, the way Python's
 * `f"{x:.2f}"` does in the original tool, so summaries match it character for character.
 * That differs from `toFixed(2)` only on exact binary ties (e.g. 0.125), which Python rounds
 * to even and `toFixed` away from zero, and on negative zero, which Python keeps signed.
 */
export function formatTwoDecimals(value: number): string {
  const sign = value < 0 || Object.is(value, -0) ? "-" : "";
  const magnitude = Math.abs(value);
  // Only a magnitude whose eighths are whole and odd (…125, …375, …625, …875) sits exactly
  // halfway between two hundredths.
  const eighths = magnitude * 8;
  if (Number.isInteger(eighths) && eighths % 2 === 1 && Number.isSafeInteger(eighths)) {
    const down = Math.floor(magnitude * 100);
    const even = down % 2 === 0 ? down : down + 1;
    return `${sign}${(even / 100).toFixed(2)}`;
  }
  return `${sign}${magnitude.toFixed(2)}`;
}
