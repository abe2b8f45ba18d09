import { runCli } from './cli';
import './commands/validate';
import './commands/parse';

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`dreams: ${(e as Error)?.message ?? String(e)}`);
    process.exit(1);
  },
);
