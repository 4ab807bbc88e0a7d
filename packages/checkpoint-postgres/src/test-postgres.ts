import { testServices } from "@framework/testing/services";

/**
 * The test server's URL (`pnpm services:start`), or `undefined` outside CI when none runs (the
 * tests skip); under CI a missing server throws, so these tests never pass by skipping.
 */
export const { postgresUrl, sql, dropSchema } = testServices("@framework/checkpoint-postgres", [
  "postgres",
]);

/** `url` with `password` set, to prove it never shows. */
export function withPassword(url: string, password: string): string {
  const parsed = new URL(url);
  parsed.password = password;
  return parsed.toString();
}
