/**
 * Which settings a shared file may not change, and how a canvas's own `run:` block is laid
 * over the user's settings. A `.dreams` file and a folder's `.vscode/settings.json` travel with
 * a repository; the settings that run commands (on this machine or a cluster account) or spend
 * money are the user's alone:
 *
 *   machine      dreams.clusters, dreams.pwCommand, dreams.pseudoDir — commands and paths of
 *                this machine; a workspace value is ignored (VS Code enforces the scope).
 *   application  dreams.approvalPolicy, dreams.provider, dreams.models, dreams.budget — how much
 *                is spent and what runs unasked; user settings only.
 *
 * A canvas's `run.approval` and `run.budget` may make the user's settings stricter, never looser:
 * a looser value is ignored and the notebook says so. No VS Code API here, so it is unit-tested.
 */
import type { ApprovalPolicy } from '../core/guard/types';
import { tightenApprovalPolicy, type Tightened } from '../core/run/sharedPreferences';
import type { RunPreferences } from '../core/workflows/objective';

export const MACHINE_SETTINGS = ['clusters', 'pwCommand', 'pseudoDir'] as const;
export const APPLICATION_SETTINGS = ['approvalPolicy', 'provider', 'models', 'budget'] as const;

/** Settings a workspace or folder cannot set (without the `dreams.` prefix). */
export const USER_ONLY_SETTINGS: readonly string[] = [...MACHINE_SETTINGS, ...APPLICATION_SETTINGS];

export type Budget = NonNullable<RunPreferences['budget']>;

export type { Tightened } from '../core/run/sharedPreferences';

/** The canvas's policy when it is at least as strict as the user's; the user's otherwise. */
export function tightenApproval(user: ApprovalPolicy, canvas: ApprovalPolicy | undefined): Tightened<ApprovalPolicy> {
  return tightenApprovalPolicy(user, canvas, {
    yours: (u) => `your setting dreams.approvalPolicy is "${u}"`,
    file: 'a canvas',
    allow: () => 'change dreams.approvalPolicy in your user settings',
  });
}

const BUDGET_NAMES: Record<keyof Budget, string> = {
  maxTokens: 'tokens',
  maxCostUsd: 'cost (USD)',
  maxJobs: 'jobs',
  maxWallMinutes: 'wall time (minutes)',
};

/** Each limit the lower of the user's and the canvas's; a canvas limit above the user's is ignored. */
export function tightenBudget(user: Budget, canvas: Budget | undefined): Tightened<Budget> {
  const value: Budget = { ...user };
  const ignored: string[] = [];
  for (const [k, v] of Object.entries(canvas ?? {}) as [keyof Budget, number | undefined][]) {
    if (v === undefined) continue;
    const mine = user[k];
    if (mine === undefined || v <= mine) value[k] = v;
    else
      ignored.push(
        `run.budget.${k}: ${v} was ignored: your setting dreams.budget.${k} limits ${BUDGET_NAMES[k]} to ${mine}, and a canvas may only lower it. To allow more, raise it in your user settings.`,
      );
  }
  return { value, ignored };
}

/** Keys of a settings file's object that set a user-only DREAMS setting ("dreams.pwCommand", ...). */
export function userOnlyKeysIn(settings: unknown): string[] {
  if (!settings || typeof settings !== 'object' || Array.isArray(settings)) return [];
  const keys = Object.keys(settings as Record<string, unknown>);
  const found = new Set<string>();
  for (const key of keys) {
    // "dreams.pwCommand", and a language-specific block ("[qe-input]": { "dreams.pwCommand": ... })
    if (key.startsWith('dreams.') && USER_ONLY_SETTINGS.includes(key.slice('dreams.'.length).split('.')[0]!))
      found.add(key.split('.').slice(0, 2).join('.'));
    if (/^\[.*\]$/.test(key)) for (const inner of userOnlyKeysIn((settings as Record<string, unknown>)[key])) found.add(inner);
  }
  return [...found].sort();
}

/** The sentence shown when a workspace tries to set user-only settings. */
export function ignoredSettingsMessage(keys: readonly string[], where: string): string {
  const list = keys.join(', ');
  return (
    `DREAMS ignores ${list} in ${where}: ${keys.length === 1 ? 'it' : 'they'} can run commands on your machine or cluster account, or decide what is spent and approved, ` +
    'so only your user settings count (a shared folder cannot change them). Set them in your user settings (Preferences: Open User Settings) if you want them.'
  );
}
