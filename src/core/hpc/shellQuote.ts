/**
 * POSIX shell quoting for everything the remote runner puts on a command line.
 * Single quotes make every byte literal except the single quote itself, which is
 * closed, escaped and reopened. File names may contain anything but NUL; a leading
 * dash still reads as an option to most programs, so callers pass `--` or an
 * absolute path before such a name.
 */
export function shellQuote(arg: string): string {
  if (arg.includes('\0')) {
    throw new Error(
      `cannot quote ${JSON.stringify(arg)} for the remote shell: it contains a NUL byte, which no shell argument can hold. Rename the file.`,
    );
  }
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Quote each argument and join with spaces. */
export const shellJoin = (args: readonly string[]): string => args.map(shellQuote).join(' ');

/**
 * A remote path for the shell: `~` and `~/x` expand to the login's home (quoted apart
 * so a home with odd characters stays one word); anything else is quoted as is.
 */
export function shellPath(p: string): string {
  if (p === '~') return '"$HOME"';
  if (p.startsWith('~/')) return `"$HOME"/${shellQuote(p.slice(2))}`;
  return shellQuote(p);
}
