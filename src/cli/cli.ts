/** The headless `dreams` command over the same core as the extension. */
import { version } from '../../package.json';

export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  run(args: string[]): Promise<number>;
}

const commands = new Map<string, CliCommand>();

export function registerCliCommand(cmd: CliCommand): void {
  commands.set(cmd.name, cmd);
}

function help(): string {
  const rows = [...commands.values()].map((c) => `  ${c.name.padEnd(10)} ${c.summary}`);
  return [
    `dreams ${version}: traceable DFT workflows with Quantum ESPRESSO`,
    '',
    'Commands:',
    ...rows,
    '',
    "Run `dreams <command> --help` for a command's options.",
  ].join('\n');
}

export async function runCli(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(help());
    return 0;
  }
  if (name === '--version' || name === '-v') {
    console.log(version);
    return 0;
  }
  const cmd = commands.get(name);
  if (!cmd) {
    console.error(`dreams: unknown command "${name}".\n\n${help()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(cmd.usage);
    return 0;
  }
  return cmd.run(rest);
}
