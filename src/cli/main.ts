import { runCli } from './cli';
import './commands/validate';
import './commands/parse';
import './commands/run';
import './commands/resume';
import './commands/report';
import './commands/approve';
import './commands/jobs';
import './commands/structure';

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`dreams: ${(e as Error)?.message ?? String(e)}`);
    process.exit(1);
  },
);
