/** The run of the active canvas at a glance in the status bar: state, tokens, cost and jobs (core/run/progress.ts). */
import * as vscode from 'vscode';
import type { CanvasEvent } from '../core/canvas/types';
import { runProgress } from '../core/run/progress';
import { runSummaryText } from './runSummaryText';

export class RunSummaryItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('dreams.runSummary', vscode.StatusBarAlignment.Left, 99);

  /** Whether it is in the status bar now (tests read it). */
  visible = false;

  constructor() {
    this.item.name = 'DREAMS run';
  }

  show(events: readonly CanvasEvent[] | undefined): void {
    this.visible = !!events;
    if (!events) {
      this.item.hide();
      return;
    }
    const { text, tooltip } = runSummaryText(runProgress(events));
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.command = 'dreams.jobs.focus';
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
