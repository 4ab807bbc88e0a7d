/** A list of `"<node>:start"` / `"<node>:end"` marks in the order nodes recorded them. */
export class Timeline {
  readonly marks: string[] = [];

  mark(entry: string): void {
    this.marks.push(entry);
  }

  /** Position of a mark; -1 when absent. */
  at(entry: string): number {
    return this.marks.indexOf(entry);
  }

  /** How many times a mark was recorded. */
  count(entry: string): number {
    return this.marks.filter((mark) => mark === entry).length;
  }
}
