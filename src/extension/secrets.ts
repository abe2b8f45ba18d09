/** The Anthropic API key lives in VS Code's SecretStorage, never in settings or files. */
import * as vscode from 'vscode';
import { API_KEY_SECRET } from './apiKeySecret';

export { API_KEY_SECRET };

export async function setApiKey(secrets: vscode.SecretStorage): Promise<boolean> {
  const key = await vscode.window.showInputBox({
    title: 'DREAMS: Anthropic API key',
    prompt: "Stored in VS Code's secret storage (the OS keychain where there is one); never written to settings.",
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) =>
      v.trim() === '' ? 'Paste the key, or press Escape to cancel.' : /\s/.test(v.trim()) ? 'An API key has no spaces.' : undefined,
  });
  if (key === undefined) return false;
  await secrets.store(API_KEY_SECRET, key.trim());
  void vscode.window.showInformationMessage('DREAMS: API key stored in secret storage.');
  return true;
}

export async function clearApiKey(secrets: vscode.SecretStorage): Promise<void> {
  await secrets.delete(API_KEY_SECRET);
  void vscode.window.showInformationMessage('DREAMS: API key removed from secret storage.');
}

export function getApiKey(secrets: vscode.SecretStorage): Thenable<string | undefined> {
  return secrets.get(API_KEY_SECRET);
}
