import { runCli } from './cli';
import { reportCliError } from './errors';
import './commands/validate';
import './commands/parse';
import './commands/run';
import './commands/resume';
import './commands/report';
import './commands/approve';
import './commands/jobs';
import './commands/structure';
import './commands/mcp';

const fail = (e: unknown): never => process.exit(reportCliError(e, (line) => console.error(line)));
// An error thrown outside a command's promise (a timer, a stream) ends the same way: no stack trace.
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);
runCli(process.argv.slice(2)).then((code) => process.exit(code), fail);
