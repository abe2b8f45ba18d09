/** Pending approvals of every open run: a tree view with a badge, and a status-bar count. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApprovalRequest } from '../core/guard/types';
import { CanvasProjection } from '../core/report/canvasProjection';
import type { RunRegistry, RunView } from './runs';

export interface PendingApproval {
  run: RunView;
  request: ApprovalRequest;
}

export class ApprovalsView implements vscode.TreeDataProvider<PendingApproval>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly status = vscode.window.createStatusBarItem('dreams.approvals', vscode.StatusBarAlignment.Left, 100);
  private pending: PendingApproval[] = [];
  private shownKey: string | undefined;
  /** How many times the tree was redrawn (for tests: a busy run must not redraw it). */
  redraws = 0;
  private readonly sub: vscode.Disposable;
  private view: vscode.TreeView<PendingApproval> | undefined;

  constructor(private readonly runs: RunRegistry) {
    this.status.name = 'DREAMS approvals';
    this.status.command = 'dreams.approvals.focus';
    this.sub = runs.onDidChange(() => void this.refresh());
    void this.refresh();
  }

  /** The tree view whose badge carries the count (on the view and the DREAMS activity-bar icon). */
  attach(view: vscode.TreeView<PendingApproval>): void {
    this.view = view;
    this.updateBadge();
  }

  private updateBadge(): void {
    if (!this.view) return;
    const n = this.pending.length;
    this.view.badge = n ? { value: n, tooltip: `${n} guard warning${n === 1 ? '' : 's'} waiting for your answer` } : undefined;
  }

  async refresh(): Promise<void> {
    const out: PendingApproval[] = [];
    for (const run of await this.runs.all()) {
      const p = new CanvasProjection();
      p.applyAll(run.events());
      for (const request of p.pendingApprovals()) out.push({ run, request });
    }
    // The tree is redrawn only when the list changes, not on every event of a running run:
    // a redraw replaces the rows' commands, and a click on a row drawn a moment earlier would
    // then find its command gone ("Actual command not found").
    const key = out.map((a) => `${a.run.logPath}#${a.request.id}`).join('\n');
    if (key === this.shownKey) return;
    this.shownKey = key;
    this.pending = out;
    this.redraws++;
    this.changed.fire();
    this.updateBadge();
    if (out.length) {
      this.status.text = `$(shield) ${out.length} approval${out.length === 1 ? '' : 's'} pending`;
      this.status.tooltip = 'DREAMS: guard warnings waiting for your answer. Click to list them.';
      this.status.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      this.status.show();
    } else {
      this.status.hide();
    }
  }

  count(): number {
    return this.pending.length;
  }

  getChildren(element?: PendingApproval): PendingApproval[] {
    return element ? [] : this.pending;
  }

  getTreeItem(a: PendingApproval): vscode.TreeItem {
    const r = a.request;
    const item = new vscode.TreeItem(`${r.id}: ${r.tool}${r.parameter ? ` · ${r.parameter}` : ''}`);
    item.description = `${r.value !== undefined ? `= ${JSON.stringify(r.value)} · ` : ''}${path.basename(a.run.runDir)}`;
    item.tooltip = new vscode.MarkdownString(r.verdicts.map((v) => `**${v.level}** \`${v.rule}\`: ${v.reasons.join(' ')}`).join('\n\n'));
    item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('charts.orange'));
    item.id = `${a.run.logPath}#${r.id}`;
    item.contextValue = 'dreams.approval';
    item.command = { command: 'dreams.revealCell', title: 'Show in canvas', arguments: [a.run.logPath, `approvals/${r.id}`] };
    return item;
  }

  dispose(): void {
    this.sub.dispose();
    this.status.dispose();
    this.changed.dispose();
  }
}
