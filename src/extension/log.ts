/**
 * The "DREAMS" log output channel: the extension's side of the core's logger port. SSH logins
 * and reconnects, scheduler commands with their exit codes, job transitions and API retries
 * are written here at their level; the user picks what shows (the channel's "Set Log Level").
 * Keys and secrets never reach it: the core logs none, and every line is redacted again here
 * against the secrets this window holds (the API key once it has been read).
 */
import * as vscode from 'vscode';
import { createLogger, type Logger } from '../core/logger';

export class DreamsLog implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  readonly logger: Logger;
  private readonly secrets = new Set<string>();

  constructor() {
    this.channel = vscode.window.createOutputChannel('DREAMS', { log: true });
    const c = this.channel;
    this.logger = createLogger({ log: (level, message) => c[level](message) }, { secrets: () => [...this.secrets] });
  }

  /** A value that must never appear in the channel (an API key read from secret storage). */
  addSecret(value: string | undefined): void {
    if (value && value.trim().length >= 4) this.secrets.add(value.trim());
  }

  dispose(): void {
    this.channel.dispose();
  }
}
