/**
 * QE input language features in the editor, adapted from the DFT toolkit's pure language
 * service: live diagnostics from the pw.x validator, completion, hover and quick fixes,
 * all for the pw.x version of the setting `dreams.qeVersion` (or the file's
 * "! qe-version:" comment, else the toolkit's default).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { completionsAt, hoverAt, quickFixesAt, type CompletionKind } from '../../core/dft/qe/language';
import type { QeVersion } from '../../core/dft/qe/definitionTypes';
import { parsePwInput } from '../../core/dft/qe/input';
import { upfHeadersForInput } from '../../core/dft/qe/upfFiles';
import { validatePwInput, type Diagnostic as QeDiagnostic } from '../../core/dft/qe/validate';
import type { Range as QeRange } from '../../core/dft/qe/input/model';
import type { TextEdit as QeTextEdit } from '../../core/dft/qe/input/edit';

export const QE_LANGUAGE = 'qe-input';
const SELECTOR: vscode.DocumentSelector = [{ language: QE_LANGUAGE }];

const toRange = (r: QeRange) => new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
const toPosition = (p: vscode.Position) => ({ line: p.line, character: p.character });

function qeVersionSetting(): QeVersion | undefined {
  const v = vscode.workspace.getConfiguration('dreams').get<string>('qeVersion', 'auto');
  return v === '6.7' || v === '7.2' || v === 'develop' ? v : undefined;
}

const SEVERITY: Record<QeDiagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/** Validator diagnostics for one document (pseudopotential rules when the UPF files can be read). */
export function diagnosticsFor(doc: vscode.TextDocument): vscode.Diagnostic[] {
  const text = doc.getText();
  const qeVersion = qeVersionSetting();
  const input = parsePwInput(text);
  let upfHeaders: ReturnType<typeof upfHeadersForInput> | undefined;
  if (doc.uri.scheme === 'file') {
    const pseudoDir = vscode.workspace.getConfiguration('dreams').get<string>('pseudoDir', '') || undefined;
    try {
      upfHeaders = upfHeadersForInput(input, { ...(pseudoDir ? { pseudoDir } : {}), inputDir: path.dirname(doc.uri.fsPath) });
    } catch {
      upfHeaders = undefined; // no pseudo_dir known: the pseudopotential rules stay quiet
    }
  }
  const result = validatePwInput(input, { ...(qeVersion ? { qeVersion } : {}), ...(upfHeaders ? { upfHeaders } : {}) });
  return result.diagnostics.map((d) => {
    const diag = new vscode.Diagnostic(toRange(d.range), d.message, SEVERITY[d.severity]);
    diag.code = d.code;
    diag.source = `pw.x ${result.qeVersion}`;
    return diag;
  });
}

const COMPLETION_KIND: Record<CompletionKind, vscode.CompletionItemKind> = {
  namelist: vscode.CompletionItemKind.Module,
  variable: vscode.CompletionItemKind.Variable,
  value: vscode.CompletionItemKind.EnumMember,
  card: vscode.CompletionItemKind.Struct,
  'card-option': vscode.CompletionItemKind.EnumMember,
};

function toWorkspaceEdit(uri: vscode.Uri, edits: QeTextEdit[]): vscode.WorkspaceEdit {
  const we = new vscode.WorkspaceEdit();
  for (const e of edits) we.replace(uri, toRange(e.range), e.newText);
  return we;
}

export function registerQeLanguage(context: vscode.ExtensionContext): vscode.DiagnosticCollection {
  const collection = vscode.languages.createDiagnosticCollection(QE_LANGUAGE);
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const refresh = (doc: vscode.TextDocument, delayMs: number) => {
    if (doc.languageId !== QE_LANGUAGE) return;
    const key = doc.uri.toString();
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        if (doc.isClosed) return;
        try {
          collection.set(doc.uri, diagnosticsFor(doc));
        } catch (e) {
          collection.set(doc.uri, [
            new vscode.Diagnostic(
              new vscode.Range(0, 0, 0, 0),
              `The pw.x validator stopped on this file: ${(e as Error).message}. Please report it with the file attached.`,
              vscode.DiagnosticSeverity.Information,
            ),
          ]);
        }
      }, delayMs),
    );
  };
  context.subscriptions.push(
    collection,
    vscode.workspace.onDidOpenTextDocument((d) => refresh(d, 0)),
    vscode.workspace.onDidChangeTextDocument((e) => refresh(e.document, 250)),
    vscode.workspace.onDidCloseTextDocument((d) => collection.delete(d.uri)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('dreams.qeVersion') || e.affectsConfiguration('dreams.pseudoDir')) {
        for (const d of vscode.workspace.textDocuments) refresh(d, 0);
      }
    }),
    vscode.languages.registerCompletionItemProvider(
      SELECTOR,
      {
        provideCompletionItems(doc, position) {
          const qeVersion = qeVersionSetting();
          return completionsAt(doc.getText(), toPosition(position), qeVersion ? { qeVersion } : {}).map((c) => {
            const item = new vscode.CompletionItem(c.label, COMPLETION_KIND[c.kind]);
            item.detail = c.detail;
            item.documentation = new vscode.MarkdownString(c.documentation);
            item.insertText = c.insertText;
            item.range = toRange(c.range);
            item.sortText = c.sortText;
            return item;
          });
        },
      },
      '&',
      '=',
      "'",
      '.',
      ' ',
    ),
    vscode.languages.registerHoverProvider(SELECTOR, {
      provideHover(doc, position) {
        const qeVersion = qeVersionSetting();
        const h = hoverAt(doc.getText(), toPosition(position), qeVersion ? { qeVersion } : {});
        return h ? new vscode.Hover(new vscode.MarkdownString(h.markdown), toRange(h.range)) : undefined;
      },
    }),
    vscode.languages.registerCodeActionsProvider(
      SELECTOR,
      {
        provideCodeActions(doc, range) {
          const qeVersion = qeVersionSetting();
          const r = {
            start: { line: range.start.line, character: range.start.character },
            end: { line: range.end.line, character: range.end.character },
          };
          return quickFixesAt(doc.getText(), r, qeVersion ? { qeVersion } : {}).map((f) => {
            const action = new vscode.CodeAction(f.title, vscode.CodeActionKind.QuickFix);
            action.edit = toWorkspaceEdit(doc.uri, f.edits);
            const match = collection
              .get(doc.uri)
              ?.find((d) => d.code === f.diagnostic.code && d.range.isEqual(toRange(f.diagnostic.range)));
            if (match) action.diagnostics = [match];
            action.isPreferred = f.edits.length > 0;
            return action;
          });
        },
      },
      { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
    ),
  );
  for (const d of vscode.workspace.textDocuments) refresh(d, 0);
  return collection;
}
