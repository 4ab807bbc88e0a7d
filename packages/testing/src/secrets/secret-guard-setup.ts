// The vitest setup file of every package (see vitest.shared.ts at the workspace root): a test
// file fails if any known test secret appears in what it printed or in a captured log line.
import { afterAll } from "vitest";
import { describeSecretLeaks, installSecretGuard } from "./secret-guard.js";
import { testSecrets } from "./test-secrets.js";

const guard = installSecretGuard(testSecrets);

afterAll(() => {
  guard.stop();
  if (guard.leaks.length > 0) throw new Error(describeSecretLeaks(guard.leaks));
});
