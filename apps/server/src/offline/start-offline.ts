import { type FakeServices, startFakeServices } from "@framework/demo-kit";
import { referenceAnalyst } from "./reference-analyst.js";

/**
 * The server's `--offline` mode: every upstream faked on 127.0.0.1, the model answered by the
 * apps' scripted analysts. Only `cli.ts`'s dynamic `import()` loads this module, so a real run
 * never loads a test double.
 */
export function startOffline(): Promise<FakeServices> {
  return startFakeServices({ analyst: referenceAnalyst });
}
