/**
 * A run in progress in the status bar: one item per run started from a cell in this window,
 * with its latest progress line; a click shows its canvas. It replaces a notification that
 * would stay up for the hours a study can take. Cancelling is the notebook's interrupt.
 */
import * as vscode from 'vscode';

const MAX_TEXT = 64;
let counter = 0;

export class RunProgressItem implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  /** The last progress line (tests read it). */
  latest = '';

  constructor(
    readonly canvas: vscode.Uri,
    private readonly name: string,
  ) {
    this.item = vscode.window.createStatusBarItem(`dreams.runProgress.${++counter}`, vscode.StatusBarAlignment.Left, 98);
    this.item.name = 'DREAMS run in progress';
    this.item.command = { command: 'vscode.open', title: 'Show the canvas', arguments: [canvas] };
    this.report('starting');
    this.item.show();
  }

  report(line: string): void {
    this.latest = line;
    const short = line.length > MAX_TEXT ? `${line.slice(0, MAX_TEXT - 1)}…` : line;
    this.item.text = `$(sync~spin) DREAMS: ${short}`;
    const tip = new vscode.MarkdownString();
    tip.appendText(`${this.name}: ${line}`);
    tip.appendMarkdown('\n\nClick to show the canvas. To cancel the run, interrupt its cell in the notebook.');
    this.item.tooltip = tip;
  }

  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    this.item.dispose();
  }
}
