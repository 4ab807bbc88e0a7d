import type { PostgresSaver } from "@framework/checkpoint-postgres";
import { ConfigurationError } from "@framework/core";
import { warnDeprecated } from "@framework/core/internal";
import type { CrewQueueConnection } from "../queue-connection.js";

/**
 * The `PostgresSaver` a queue or worker was given: `checkpointer`, or `saver`, its deprecated
 * name, which still works and warns once per process.
 *
 * @throws ConfigurationError when neither is given, or both are and differ.
 */
export function checkpointerOf(options: CrewQueueConnection, owner: string): PostgresSaver {
  const { checkpointer, saver } = options as {
    checkpointer?: PostgresSaver;
    saver?: PostgresSaver;
  };
  if (saver !== undefined) {
    if (checkpointer !== undefined && checkpointer !== saver) {
      throw new ConfigurationError({
        setting: "checkpointer",
        message: `${owner} takes checkpointer or its deprecated name saver, not two different savers`,
      });
    }
    warnDeprecated(
      "FRAMEWORK_CREW_QUEUE_SAVER",
      "@framework/crew-queue: the saver option is deprecated, pass the same PostgresSaver as checkpointer; saver goes away in the next minor version",
    );
    return saver;
  }
  if (checkpointer === undefined) {
    throw new ConfigurationError({
      setting: "checkpointer",
      message: `${owner} needs a checkpointer: the PostgresSaver whose schema keeps the runs`,
    });
  }
  return checkpointer;
}
