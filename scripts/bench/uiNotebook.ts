/** Notebook open time for bench:ui (filled in once the run projection exists). */
export interface NotebookOpenFigures {
  artifacts: number;
  openMs: number;
  runs: number[];
}

export async function benchNotebookOpen(_artifacts: number): Promise<NotebookOpenFigures | undefined> {
  return undefined;
}
