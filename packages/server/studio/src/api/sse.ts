/** One server-sent event: its `event` name (default `message`), `data` and `id`. */
export interface ServerSentEvent {
  event: string;
  data: string;
  id: string | undefined;
}

/**
 * Splits a stream of server-sent-event text into events, as the WHATWG parser does: `data:`
 * lines joined by newlines, comments (`:`) ignored, an event dispatched at a blank line.
 * Feed it text as it arrives; chunks may split lines anywhere.
 */
export class ServerSentEventParser {
  #buffer = "";
  #event = "";
  #data: string[] = [];
  #id: string | undefined;

  /** The events completed by `text`. */
  push(text: string): ServerSentEvent[] {
    this.#buffer += text;
    const events: ServerSentEvent[] = [];
    let newline = this.#buffer.search(/\r\n|\r|\n/);
    while (newline >= 0) {
      const line = this.#buffer.slice(0, newline);
      const width = this.#buffer.startsWith("\r\n", newline) ? 2 : 1;
      // A lone \r at the end may be the first half of \r\n: wait for more.
      if (width === 1 && this.#buffer[newline] === "\r" && newline === this.#buffer.length - 1) {
        break;
      }
      this.#buffer = this.#buffer.slice(newline + width);
      const event = this.#line(line);
      if (event) events.push(event);
      newline = this.#buffer.search(/\r\n|\r|\n/);
    }
    return events;
  }

  #line(line: string): ServerSentEvent | undefined {
    if (line === "") {
      if (this.#data.length === 0) {
        this.#event = "";
        return undefined;
      }
      const event = { event: this.#event || "message", data: this.#data.join("\n"), id: this.#id };
      this.#event = "";
      this.#data = [];
      return event;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.#event = value;
    else if (field === "data") this.#data.push(value);
    else if (field === "id") this.#id = value;
    return undefined;
  }
}
