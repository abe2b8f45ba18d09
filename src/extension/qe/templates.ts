/**
 * pw.x templates of a run, edited in the editor. Artifacts are immutable, so editing
 * opens a working copy (`<run>/templates/<artifact>.pwi`) with the QE language's live
 * validation; saving records a new template version in the canvas — a user tool call
 * whose output supersedes the old input — and marks everything generated from the old
 * version stale, so the agents see it and regenerate.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { openRun } from '../../core/run/directory';
import { EventLogError } from '../../core/canvas/eventLogError';
import { downstreamArtifacts } from '../../core/provenance/upstream';
import type { ArtifactRecord } from '../../core/provenance/types';

export const TEMPLATE_DIR = 'templates';

/** The working copy of a qe-input artifact: created from the stored file the first time. */
export function workingCopyOf(runDir: string, artifact: ArtifactRecord): string {
  const file = path.join(runDir, TEMPLATE_DIR, `${artifact.id}.pwi`);
  if (!fs.existsSync(file)) {
    const text =
      artifact.location && fs.existsSync(path.join(runDir, artifact.location))
        ? fs.readFileSync(path.join(runDir, artifact.location), 'utf8')
        : (artifact.value as { text?: string } | undefined)?.text;
    if (text === undefined)
      throw new Error(`${artifact.id} (${artifact.name}) has no pw.x input text to edit: neither a stored file nor a text value.`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return file;
}

export interface TemplateSaveResult {
  newId: string;
  stale: string[];
}

/** Record an edited template as a new version and mark what came from the old one stale. */
export async function recordTemplateVersion(runDir: string, oldId: string, text: string): Promise<TemplateSaveResult> {
  const run = await openRun(runDir, { mode: 'writer' });
  try {
    const old = run.registry.artifact(oldId);
    if (!old) throw new Error(`${oldId} is not an artifact of the run in ${runDir}.`);
    if (old.kind !== 'qe-input') throw new Error(`${oldId} is a ${old.kind}, not a pw.x input: only inputs are edited as templates.`);
    const before = (old.value ?? {}) as Record<string, unknown>;
    if (before.text === text) throw new Error(`the working copy of ${oldId} is unchanged: nothing to record.`);
    const resolved = run.registry.resolve(oldId);
    if (!resolved.ok) throw new Error(resolved.problem);
    const call = await run.registry.recordCall({
      tool: 'edit_template',
      args: { template: { value: resolved.value as never, ref: oldId } },
      reasons: { template: 'edited by the user in VS Code' },
      context: `user edit of the pw.x template ${oldId}`,
      verdicts: [],
      agent: { role: 'user' },
    });
    // The render options described the old text; the edited text stands on its own.
    const { options: _options, pseudos: _pseudos, ...kept } = before;
    const [created] = await run.registry.registerArtifacts(call.id, [
      {
        kind: 'qe-input',
        name: old.name,
        value: { ...kept, text, editedFrom: oldId },
        file: { name: path.basename(old.location ?? 'pw.in'), bytes: text },
        meta: { ...(old.meta ?? {}), supersedes: oldId, editedBy: 'user@vscode' },
      },
    ]);
    await run.registry.endCall(call.id, { status: 'ok' });
    // The new version references the old one but is not generated from it.
    const stale = downstreamArtifacts(run.registry, [oldId]).filter(
      (id) => id !== created!.id && run.registry.artifact(id)?.status !== 'stale',
    );
    if (stale.length)
      await run.registry.markStatus(stale, 'stale', `generated from template ${oldId}, which the user replaced with ${created!.id}`);
    return { newId: created!.id, stale };
  } finally {
    await run.close();
  }
}

/** Saves of working copies become template versions. */
export function registerTemplateEditing(
  context: vscode.ExtensionContext,
  openForEdit: (runDir: string, artifactId: string) => Promise<void>,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('dreams.editTemplate', (runDir: string, artifactId: string) => openForEdit(runDir, artifactId)),
    vscode.workspace.onDidSaveTextDocument(async (doc) => {
      const m = /^(.*)[\\/]templates[\\/](a-\d+)\.pwi$/.exec(doc.uri.fsPath);
      if (!m || !fs.existsSync(path.join(m[1]!, 'events.jsonl'))) return;
      const [, runDir, oldId] = m as unknown as [string, string, string];
      if (!vscode.workspace.isTrusted) {
        void vscode.window.showWarningMessage(
          'This workspace is not trusted: the edited template was saved to its working copy but not recorded in the run.',
        );
        return;
      }
      const errors = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
      if (errors.length) {
        const go = 'Record anyway';
        const c = await vscode.window.showWarningMessage(
          `The template has ${errors.length} error(s) pw.x would stop on (first: ${errors[0]!.message}). Record it as the run's new template anyway?`,
          { modal: true },
          go,
        );
        if (c !== go) return;
      }
      try {
        const r = await recordTemplateVersion(runDir, oldId, doc.getText());
        void vscode.window.showInformationMessage(
          `Template ${oldId} replaced by ${r.newId}. ${r.stale.length ? `${r.stale.length} result(s) generated from ${oldId} are now stale; the agents regenerate them when the run continues.` : `Nothing had been generated from ${oldId} yet.`}`,
        );
      } catch (e) {
        const msg =
          e instanceof EventLogError && e.code === 'locked'
            ? `The run is being written by another process, so the template version was not recorded (your text is kept in ${path.basename(doc.uri.fsPath)}). Pause or stop the run, then save again.`
            : `The template was not recorded: ${(e as Error).message}`;
        void vscode.window.showErrorMessage(msg);
      }
    }),
  );
}
