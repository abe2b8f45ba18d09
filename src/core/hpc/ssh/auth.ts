/**
 * The order OpenSSH tries: the ssh-agent (SSH_AUTH_SOCK), each IdentityFile, then
 * keyboard-interactive handed to the UI (passwords, one-time codes). After a partial
 * success (a second factor is required) only the methods the server still lists are tried.
 */
import fs from 'node:fs';
import {
  utils,
  type AuthHandlerMiddleware,
  type AuthenticationType,
  type KeyboardInteractiveCallback,
  type NextAuthHandler,
  type Prompt,
} from 'ssh2';
import type { SshHop } from './sshConfig';

export interface KeyboardInteractiveQuestion {
  cluster: string;
  host: string;
  user: string;
  name: string;
  instructions: string;
  prompts: { prompt: string; echo: boolean }[];
}

export interface PassphraseQuestion {
  cluster: string;
  keyFile: string;
}

export interface AuthCallbacks {
  /** Answer the server's prompts (one answer per prompt), or undefined to give up. */
  keyboardInteractive?(q: KeyboardInteractiveQuestion): Promise<string[] | undefined>;
  /** Passphrase of an encrypted private key, or undefined to skip the key. */
  passphrase?(q: PassphraseQuestion): Promise<string | undefined>;
}

type Attempt = { method: AuthenticationType; make: () => Promise<Parameters<NextAuthHandler>[0] | undefined>; what: string };

export function makeAuthHandler(
  cluster: string,
  hop: SshHop,
  callbacks: AuthCallbacks,
  agentSocket: string | undefined,
  tried: string[],
): AuthHandlerMiddleware {
  const attempts: Attempt[] = [];
  if (agentSocket) {
    attempts.push({
      method: 'agent',
      what: `ssh-agent (${agentSocket})`,
      make: async () => ({ type: 'agent', username: hop.user, agent: agentSocket }),
    });
  }
  for (const file of hop.identityFiles) {
    attempts.push({
      method: 'publickey',
      what: `key ${file}`,
      make: async () => {
        if (!fs.existsSync(file)) return undefined;
        const key = fs.readFileSync(file);
        let passphrase: string | undefined;
        const probe = utils.parseKey(key);
        if (probe instanceof Error) {
          if (!/encrypted/i.test(probe.message) || !callbacks.passphrase) return undefined;
          passphrase = await callbacks.passphrase({ cluster, keyFile: file });
          if (passphrase === undefined) return undefined;
        }
        return { type: 'publickey', username: hop.user, key, ...(passphrase !== undefined ? { passphrase } : {}) };
      },
    });
  }
  if (callbacks.keyboardInteractive) {
    const ask = callbacks.keyboardInteractive;
    attempts.push({
      method: 'keyboard-interactive',
      what: 'keyboard-interactive',
      make: async () => ({
        type: 'keyboard-interactive',
        username: hop.user,
        prompt: (name: string, instructions: string, _lang: string, prompts: Prompt[], finish: KeyboardInteractiveCallback) => {
          if (prompts.length === 0) return finish([]);
          ask({
            cluster,
            host: hop.alias,
            user: hop.user,
            name,
            instructions,
            prompts: prompts.map((p) => ({ prompt: p.prompt, echo: !!p.echo })),
          }).then(
            (answers) => finish(answers ?? []),
            () => finish([]),
          );
        },
      }),
    });
  }
  let cursor = 0;
  return (methodsLeft: AuthenticationType[] | null, _partialSuccess: boolean | null, next: NextAuthHandler) => {
    // ssh2 takes `false` for "no more methods", which its type declarations leave out
    const callback = next as (auth: Parameters<NextAuthHandler>[0] | false) => void;
    const pick = async () => {
      while (cursor < attempts.length) {
        const a = attempts[cursor++]!;
        if (methodsLeft && !methodsLeft.includes(a.method)) continue;
        const auth = await a.make();
        if (!auth) continue;
        tried.push(a.what);
        return auth;
      }
      return false as const;
    };
    pick().then(
      (a) => callback(a),
      () => callback(false),
    );
  };
}
