import { type FakeServices, startFakeServices } from "@framework/demo-kit";
import { crewAnalyst } from "./crew-analyst.js";

/**
 * The crew app's `--offline` mode: every upstream faked on 127.0.0.1, the model answered by
 * its scripted analyst. Only `cli.ts`'s dynamic `import()` loads this module, so a real run
 * never loads a test double.
 */
export function startOffline(): Promise<FakeServices> {
  return startFakeServices({ analyst: crewAnalyst });
}
