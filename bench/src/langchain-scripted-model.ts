import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BindToolsInput,
} from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";

/**
 * A zero-latency LangChain chat model that follows the benchmark's tool-loop script: while
 * fewer than `toolTurns` tool results are in the conversation it asks for one call of `add`,
 * then it answers in text. LangChain's own fakes (`FakeListChatModel`) cannot ask for tool
 * calls, so this is the smallest model `createReactAgent` can drive through a tool loop.
 */
export class LangChainScriptedModel extends BaseChatModel {
  readonly #toolTurns: number;

  constructor(toolTurns: number) {
    super({});
    this.#toolTurns = toolTurns;
  }

  override _llmType(): string {
    return "bench-scripted";
  }

  // The script ignores tool schemas, so binding them changes nothing.
  override bindTools(_tools: BindToolsInput[], _kwargs?: Partial<BaseChatModelCallOptions>) {
    return this;
  }

  override async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const done = messages.filter((message) => ToolMessage.isInstance(message)).length;
    const message =
      done < this.#toolTurns
        ? new AIMessage({
            content: "",
            tool_calls: [
              { id: `call_${done}`, name: "add", args: { a: done, b: 1 }, type: "tool_call" },
            ],
          })
        : new AIMessage({ content: `The sum is ${done}.` });
    return {
      generations: [{ text: typeof message.content === "string" ? message.content : "", message }],
    };
  }
}
