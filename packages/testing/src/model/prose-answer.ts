/**
 * A JSON object or array as a model that ignores a request for JSON writes it: its fields in
 * sentences, one per top-level field, e.g. `{"action":"hold","risks":["rates"]}` becomes
 * `Action: hold.\nRisks: rates.` Any other text (prose already, a number) is returned as it is.
 */
export function proseAnswer(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof value !== "object" || value === null) return text;
  if (Array.isArray(value)) return sentence(phrase(value));
  return Object.entries(value)
    .map(([key, field]) =>
      sentence(`${key.charAt(0).toUpperCase()}${key.slice(1)}: ${phrase(field)}`),
    )
    .join("\n");
}

function phrase(value: unknown): string {
  if (Array.isArray(value)) return value.map(phrase).join("; ");
  if (typeof value === "object" && value !== null) {
    return Object.entries(value)
      .map(([key, field]) => `${key} ${phrase(field)}`)
      .join(", ");
  }
  return String(value);
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
