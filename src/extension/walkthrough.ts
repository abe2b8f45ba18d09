/**
 * The commands behind the "Get started with DREAMS" walkthrough (package.json
 * contributes.walkthroughs): find pw.x (or say how to install it), choose the pseudopotential
 * folder, choose offline mode (the API key has its own command), and open the demo canvas.
 * Each sets what the walkthrough's completion events watch (a context key, a setting, or the
 * command itself). Settings are written to the user's settings: they are machine or
 * application scoped, and a workspace could not hold them anyway.
 */
import * as vscode from 'vscode';
import { probeLocalPwVersion } from '../core/hpc/pwCommand';
import { newCanvas, freeCanvasName } from './commands';
import { requireTrust } from './trust';

export const WALKTHROUGH_ID = 'dreams-dft.dreams-vscode#dreams.gettingStarted';
export const PW_INSTALL_COMMAND = 'sudo apt-get install -y --no-install-recommends quantum-espresso quantum-espresso-data';
const DEBIAN_PSEUDO_DIR = '/usr/share/espresso/pseudo';

/** A small study that runs in about half a minute on a laptop: fcc Al, LDA, lean convergence settings. */
export const DEMO_OBJECTIVE = `workflow: lattice-constant
objective: Lattice constant of fcc Al with LDA (demo settings)
inputs:
  element: Al
  structure: fcc
  latticeConstantAngstrom: 4.05
  functional: PZ
  pseudopotential: Al.pz-vbc.UPF
  cutoffsRy: [24, 28, 32, 36]
  kSpacingsPerAngstrom: [0.5, 0.3, 0.2, 0.15]
  toleranceMevPerAtom: 3
  smearing: { kind: mv, degaussRy: 0.05 }
  eos: { points: 5, rangePercent: 5 }`;

const config = () => vscode.workspace.getConfiguration('dreams');

/** pw.x found: its version; not found: the install command, to copy or type into a terminal. */
export async function checkPw(): Promise<string | undefined> {
  requireTrust('Checking pw.x');
  const command = config().get<string>('pwCommand', 'pw.x');
  const version = await probeLocalPwVersion(command);
  await vscode.commands.executeCommand('setContext', 'dreams.pwFound', !!version);
  if (version) {
    void vscode.window.showInformationMessage(`DREAMS: pw.x ${version} runs here ("${command}").`);
    return version;
  }
  const copy = 'Copy Install Command';
  const terminal = 'Type It in a Terminal';
  const set = 'Set pw.x Command';
  const pick = await vscode.window.showWarningMessage(
    `DREAMS: "${command}" does not run here. On Debian or Ubuntu, install Quantum ESPRESSO and its pseudopotentials with: ${PW_INSTALL_COMMAND}. ` +
      'Elsewhere, install QE your usual way (conda-forge, modules, a build) and set dreams.pwCommand, or run on a cluster.',
    copy,
    terminal,
    set,
  );
  if (pick === copy) await vscode.env.clipboard.writeText(PW_INSTALL_COMMAND);
  else if (pick === terminal) {
    const t = vscode.window.createTerminal('Install Quantum ESPRESSO');
    t.show();
    t.sendText(PW_INSTALL_COMMAND, false); // typed, not run: the user reads it and presses Enter
  } else if (pick === set) await vscode.commands.executeCommand('workbench.action.openSettings', 'dreams.pwCommand');
  return undefined;
}

async function upfCount(folder: vscode.Uri): Promise<number> {
  try {
    return (await vscode.workspace.fs.readDirectory(folder)).filter(([n, t]) => t === vscode.FileType.File && /\.upf$/i.test(n)).length;
  } catch {
    return 0;
  }
}

export async function choosePseudoDir(): Promise<string | undefined> {
  const current = config().get<string>('pseudoDir', '') || DEBIAN_PSEUDO_DIR;
  const picked = await vscode.window.showOpenDialog({
    title: 'DREAMS: the folder of your pseudopotential (UPF) files',
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: 'Use This Folder',
    defaultUri: vscode.Uri.file(current),
  });
  const folder = picked?.[0];
  if (!folder) return undefined;
  const n = await upfCount(folder);
  if (n === 0) {
    void vscode.window.showWarningMessage(
      `DREAMS: ${folder.fsPath} holds no .UPF files, so it was not set. Choose the folder with your pseudopotentials (Debian's quantum-espresso-data installs them in ${DEBIAN_PSEUDO_DIR}).`,
    );
    return undefined;
  }
  await config().update('pseudoDir', folder.fsPath, vscode.ConfigurationTarget.Global);
  void vscode.window.showInformationMessage(`DREAMS: pseudopotentials from ${folder.fsPath} (${n} UPF file${n === 1 ? '' : 's'}).`);
  return folder.fsPath;
}

export async function useOffline(): Promise<void> {
  await config().update('provider', 'offline', vscode.ConfigurationTarget.Global);
  void vscode.window.showInformationMessage(
    'DREAMS: offline mode. The built-in workflows run without a model; judges are recorded as "not judged", never as passes. Set an API key and dreams.provider "anthropic" to plan with a model.',
  );
}

/** The demo canvas next to the others in the workspace (dreams-demo.dreams, or a free name), opened. */
export async function openDemoCanvas(): Promise<vscode.NotebookDocument | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = folder ? await freeCanvasName(folder, 'dreams-demo') : undefined;
  const nb = await newCanvas(target);
  if (!nb) return undefined;
  const cell = nb.cellAt(0);
  if (!cell.document.getText().trim()) {
    const we = new vscode.WorkspaceEdit();
    we.replace(cell.document.uri, new vscode.Range(0, 0, cell.document.lineCount, 0), DEMO_OBJECTIVE);
    await vscode.workspace.applyEdit(we);
    await nb.save();
  }
  void vscode.window.showInformationMessage(
    'DREAMS: the demo canvas asks for the lattice constant of fcc Al. Run its objective cell (▷, "DREAMS agents" kernel) to start: about half a minute of pw.x.',
  );
  return nb;
}
