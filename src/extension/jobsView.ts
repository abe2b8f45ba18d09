/**
 * Jobs of every open run as a tree: clusters (backends) → jobs with state, progress and
 * elapsed time; open input/output, cancel and resubmit; a notification carrying pw.x's
 * own error text when a job fails.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { foldJobEvents } from '../core/hpc/jobStore';
import type { JobRecord } from '../core/hpc/types';
import type { RunRegistry, RunView } from './runs';

/** Cancel and resubmit for jobs of runs driven in this extension host (the agent runner registers it). */
export interface JobControl {
  cancel(jobId: string): Promise<void>;
  resubmit(jobId: string): Promise<void>;
}

export type JobNode = { kind: 'cluster'; name: string; jobs: JobEntry[] } | JobEntry;
export interface JobEntry {
  kind: 'job';
  job: JobRecord;
  run: RunView;
}

function elapsed(j: JobRecord, now = Date.now()): string {
  if (!j.startedAt) return '';
  const end = j.endedAt ? Date.parse(j.endedAt) : now;
  const s = Math.max(0, Math.round((end - Date.parse(j.startedAt)) / 1000));
  return s >= 3600 ? `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m` : s >= 60 ? `${Math.floor(s / 60)}m ${s % 60}s` : `${s}s`;
}

function progressText(j: JobRecord): string {
  const p = j.progress;
  if (!p) return '';
  if (p.bfgsStep !== undefined) return `BFGS ${p.bfgsStep}${p.scfIteration !== undefined ? `, SCF ${p.scfIteration}` : ''}`;
  if (p.scfIteration !== undefined)
    return `SCF ${p.scfIteration}${p.estimatedAccuracyRy !== undefined ? ` (${p.estimatedAccuracyRy.toExponential(1)} Ry)` : ''}`;
  return '';
}

const ICON: Record<string, [string, string?]> = {
  draft: ['circle-outline'],
  validated: ['pass'],
  submitted: ['cloud-upload'],
  queued: ['watch'],
  running: ['sync~spin', 'charts.blue'],
  completed: ['check', 'charts.green'],
  failed: ['error', 'charts.red'],
  cancelled: ['circle-slash'],
};

export class JobsView implements vscode.TreeDataProvider<JobNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<JobNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private clusters: { kind: 'cluster'; name: string; jobs: JobEntry[] }[] = [];
  private readonly seen = new Map<string, string>();
  private readonly disposables: vscode.Disposable[] = [];
  private ticker: ReturnType<typeof setInterval> | undefined;
  private treeView: vscode.TreeView<JobNode> | undefined;
  control: JobControl | undefined;

  constructor(private readonly runs: RunRegistry) {
    this.disposables.push(runs.onDidChange((run) => void this.refresh(run)));
    void this.refresh();
  }

  attach(view: vscode.TreeView<JobNode>): void {
    this.treeView = view;
  }

  private async refresh(changedRun?: RunView): Promise<void> {
    const byCluster = new Map<string, JobEntry[]>();
    for (const run of await this.runs.all()) {
      // The core's fold (hpc/jobStore.ts), the one the job service and the CLI read: a job keeps its last progress across transitions.
      for (const job of foldJobEvents(run.events())) {
        const list = byCluster.get(job.backend) ?? [];
        list.push({ kind: 'job', job, run });
        byCluster.set(job.backend, list);
        const key = `${run.logPath}#${job.id}`;
        const before = this.seen.get(key);
        this.seen.set(key, job.state);
        // Only a transition seen live is announced, not one replayed on open.
        if (run === changedRun && before !== undefined && before !== 'failed' && job.state === 'failed') this.announceFailure(job, run);
      }
    }
    this.clusters = [...byCluster]
      .sort(([a], [b]) => (a === 'local' ? -1 : b === 'local' ? 1 : a.localeCompare(b)))
      .map(([name, jobs]) => ({
        kind: 'cluster' as const,
        name,
        jobs: jobs.sort((a, b) => b.job.createdAt.localeCompare(a.job.createdAt)),
      }));
    this.changed.fire(undefined);
    const active = this.clusters.some((c) => c.jobs.some((j) => j.job.state === 'running' || j.job.state === 'queued'));
    if (active && !this.ticker) this.ticker = setInterval(() => this.changed.fire(undefined), 5000);
    if (!active && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  private announceFailure(job: JobRecord, run: RunView): void {
    const open = 'Open output';
    void vscode.window
      .showErrorMessage(`pw.x job ${job.id} on ${job.backend} failed: ${job.error ?? `exit code ${job.exitCode ?? '?'}`}`, open)
      .then((c) => {
        if (c === open) void this.openFile({ kind: 'job', job, run }, 'output');
      });
  }

  getChildren(node?: JobNode): JobNode[] {
    if (!node) return this.clusters;
    return node.kind === 'cluster' ? node.jobs : [];
  }

  getParent(node: JobNode): JobNode | undefined {
    return node.kind === 'job' ? this.clusters.find((c) => c.jobs.includes(node)) : undefined;
  }

  getTreeItem(node: JobNode): vscode.TreeItem {
    if (node.kind === 'cluster') {
      const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Expanded);
      item.iconPath = new vscode.ThemeIcon(node.name === 'local' ? 'vm' : 'server');
      item.description = `${node.jobs.length} job${node.jobs.length === 1 ? '' : 's'}`;
      item.contextValue = 'dreams.cluster';
      return item;
    }
    const j = node.job;
    const item = new vscode.TreeItem(j.id);
    item.description = [j.state, progressText(j), elapsed(j), j.schedulerId ? `#${j.schedulerId}` : ''].filter(Boolean).join(' · ');
    const [icon, colour] = ICON[j.state] ?? ['circle-outline'];
    item.iconPath = new vscode.ThemeIcon(icon, colour ? new vscode.ThemeColor(colour) : undefined);
    item.tooltip = `${j.program} ${j.input} on ${j.backend}\nstate: ${j.state}${j.error ? `\nerror: ${j.error}` : ''}${j.workDir ? `\nin ${j.workDir}` : ''}`;
    item.contextValue = `dreams.job.${j.state}`;
    item.id = `${node.run.logPath}#${j.id}`;
    return item;
  }

  find(jobId: string): JobEntry | undefined {
    for (const c of this.clusters) for (const j of c.jobs) if (j.job.id === jobId) return j;
    return undefined;
  }

  async reveal(jobId: string): Promise<void> {
    const entry = this.find(jobId);
    if (!entry) {
      void vscode.window.showInformationMessage(`Job ${jobId} is not in the jobs view (is its run's canvas open?).`);
      return;
    }
    await vscode.commands.executeCommand('dreams.jobs.focus');
    await this.treeView?.reveal(entry, { select: true, focus: true });
  }

  /** Local jobs: in the run's jobs/ directory or the recorded work dir. Remote outputs arrive as artifacts. */
  fileOf(entry: JobEntry, which: 'input' | 'output'): string | undefined {
    const j = entry.job;
    const dirs = [j.workDir, path.join(entry.run.runDir, 'jobs', j.id)].filter((d): d is string => !!d && path.isAbsolute(d));
    const names = which === 'input' ? [j.input] : [...j.outputs.map((o) => o.name), j.input.replace(/\.in$/, '') + '.out', 'pw.out'];
    for (const d of dirs) for (const n of names) if (fs.existsSync(path.join(d, n))) return path.join(d, n);
    return undefined;
  }

  async openFile(entry: JobEntry, which: 'input' | 'output'): Promise<void> {
    const f = this.fileOf(entry, which);
    if (!f) {
      void vscode.window.showWarningMessage(
        `No ${which} file of job ${entry.job.id} on this machine${entry.job.backend !== 'local' ? ` (it ran on ${entry.job.backend}; its output arrives as an artifact when the job ends)` : ''}.`,
      );
      return;
    }
    await vscode.window.showTextDocument(vscode.Uri.file(f), { preview: true });
  }

  async cancel(entry: JobEntry): Promise<void> {
    if (!this.control || !entry.run.writer) {
      void vscode.window.showWarningMessage(
        `Job ${entry.job.id} belongs to a run driven by another process; cancel it there (e.g. \`dreams cancel ${entry.job.id}\`).`,
      );
      return;
    }
    await this.control.cancel(entry.job.id);
  }

  async resubmit(entry: JobEntry): Promise<void> {
    if (!this.control || !entry.run.writer) {
      void vscode.window.showWarningMessage(`Job ${entry.job.id} belongs to a run driven by another process; resubmit it there.`);
      return;
    }
    await this.control.resubmit(entry.job.id);
  }

  dispose(): void {
    if (this.ticker) clearInterval(this.ticker);
    for (const d of this.disposables) d.dispose();
    this.changed.dispose();
  }
}
