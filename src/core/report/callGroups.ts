/**
 * Which canvas cell shows an artifact: a call made for a plan step shows in its step's cell,
 * `steps/<step id>` (the lab-notebook layout: one cell per step). A call outside any step (a
 * user's call, a run without a plan) groups as before: the artifacts of consecutive calls of
 * one tool (a sweep, an EOS series, a batch of relaxations) share one cell, `calls/<first
 * call>`; a call of another tool starts the next cell. A fold over the log's events in order,
 * so the notebook projection and the provenance graph (which reveals an artifact's cell) agree,
 * and a reopen gives the same cells.
 *
 * Why group at all: a notebook's cost to open grows with its cells and outputs (~1.5 ms per
 * cell and ~0.5 ms per output in VS Code here, measured for bench:ui), and a run of thousands
 * of artifacts as thousands of cells took 4–8 s to open; a sweep read as one cell is also what
 * a practitioner compares. Pure: no VS Code API.
 */
export class CallGroups {
  private readonly toolOf = new Map<string, string>();
  private readonly stepOf = new Map<string, string>();
  private readonly groupOfCall = new Map<string, string>();
  private readonly members = new Map<string, string[]>();
  private last: { group: string; tool: string | undefined } | undefined;

  /** A tool call as recorded (before its artifacts), with the plan step it serves. */
  call(id: string, tool: string, step?: string): void {
    this.toolOf.set(id, tool);
    if (step) this.stepOf.set(id, step);
  }

  /** The cell id of a plan step. */
  static stepCell(step: string): string {
    return `steps/${step}`;
  }

  /** The step a call serves, if any. */
  stepOfCall(call: string): string | undefined {
    return this.stepOf.get(call);
  }

  /** The group of the call that created an artifact; the call joins the last group when it ran the same tool. */
  artifact(creator: string): string {
    const known = this.groupOfCall.get(creator);
    if (known) return known;
    const tool = this.toolOf.get(creator);
    const step = this.stepOf.get(creator);
    let group: string;
    if (step) {
      group = CallGroups.stepCell(step);
      const members = this.members.get(group);
      if (members) members.push(creator);
      else this.members.set(group, [creator]);
    } else if (this.last && tool !== undefined && this.last.tool === tool) {
      group = this.last.group;
      this.members.get(group)!.push(creator);
    } else {
      group = `calls/${creator}`;
      this.members.set(group, [creator]);
      this.last = { group, tool };
    }
    this.groupOfCall.set(creator, group);
    return group;
  }

  /** The cell id of a call that created artifacts, or undefined. */
  groupOf(call: string): string | undefined {
    return this.groupOfCall.get(call);
  }

  /** The calls of a group, in the order they joined it. */
  callsOf(group: string): readonly string[] {
    return this.members.get(group) ?? [];
  }
}
