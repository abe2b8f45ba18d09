// The error root: every code has an exit status the README documents and an action, and every
// error class a person can meet is a DreamsError with a code from the closed set.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { DreamsError, ERROR_CODES, EXIT_STATUSES, exitStatusOf } from '../../../src/core/errors';
import { EventLogError } from '../../../src/core/canvas/eventLogError';
import { ProvenanceError } from '../../../src/core/provenance/types';
import { LlmError } from '../../../src/core/llm/types';
import { BudgetExceededError } from '../../../src/core/llm/budget';
import { IncompleteStreamError } from '../../../src/core/llm/errors';
import { RunStopped } from '../../../src/core/guard/interruption';
import { ToolSetupError } from '../../../src/core/tools/services';
import { ObjectiveError } from '../../../src/core/workflows/types';
import { DftScienceError } from '../../../src/core/dft/scienceError';
import { StructureFileError } from '../../../src/core/dft/io/errors';
import { CalculatorError } from '../../../src/core/calculators/types';
import { CanvasFileError } from '../../../src/core/canvas/canvasFile';
import { IllegalJobTransitionError } from '../../../src/core/hpc/jobModel';
import { SchedulerOutputError } from '../../../src/core/hpc/schedulers/common';
import { ConnectionLostError, SshRefusedError } from '../../../src/core/hpc/ssh/connection';
import { SettingsError } from '../../../src/core/dft/qe/settings';
import { SeriesError } from '../../../src/core/dft/qe/series';
import { LatticeError } from '../../../src/core/dft/qe/input/lattice';
import { UpfReadError } from '../../../src/core/dft/qe/upf';
import { SlabError } from '../../../src/core/adsorption/slab';
import { SlabSelectionError } from '../../../src/core/dft/slabSelection';
import { UsageError } from '../../../src/cli/commands/runOptions';

const ROOT = path.resolve(__dirname, '../../..');

describe('the error root', () => {
  it('gives every code an exit status from the documented list and an action to take', () => {
    for (const [code, spec] of Object.entries(ERROR_CODES)) {
      assert.ok(spec.exit in EXIT_STATUSES, `${code}: exit ${spec.exit} is not in EXIT_STATUSES`);
      assert.match(spec.action, /^[A-Z].*\.$/, `${code}: the action is a sentence`);
    }
  });

  it('documents every exit status in the README with the meaning the CLI gives it', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const section = /### Exit status\n([\s\S]*?)\n#/.exec(readme)?.[1] ?? '';
    assert.ok(section, 'README has an "### Exit status" section');
    for (const status of Object.keys(EXIT_STATUSES))
      assert.match(section, new RegExp(`^\\| ${status} \\|`, 'm'), `exit ${status} in README`);
  });

  it('makes every error class a person can meet a DreamsError with its code', () => {
    const cases: [DreamsError, string][] = [
      [new EventLogError('locked', 'open elsewhere'), 'locked'],
      [new ProvenanceError('value-mismatch', 'differs'), 'value-mismatch'],
      [new LlmError('auth', 'no key'), 'auth'],
      [new BudgetExceededError('cost', 2, 1, 'over budget'), 'budget'],
      [new IncompleteStreamError('stalled'), 'incomplete-stream'],
      [new RunStopped('stopped', 'stopped by the user'), 'stopped'],
      [new ToolSetupError('no jobs service'), 'setup'],
      [new ObjectiveError('bad objective'), 'bad-input'],
      [new DftScienceError('no minimum'), 'science'],
      [new StructureFileError('cif', 3, 'no cell'), 'bad-input'],
      [new CalculatorError('emt', 'no parameters for U'), 'science'],
      [new CanvasFileError('not a canvas'), 'bad-input'],
      [new IllegalJobTransitionError('j-1', 'completed', 'running'), 'illegal-transition'],
      [new SchedulerOutputError('squeue', 'x', 'a table'), 'scheduler-output'],
      [new SshRefusedError('host key changed'), 'ssh-refused'],
      [new ConnectionLostError('dropped'), 'connection-lost'],
      [new SettingsError('no ecutwfc'), 'bad-input'],
      [new SeriesError('no template'), 'bad-input'],
      [new LatticeError('no celldm'), 'bad-input'],
      [new UpfReadError('not a UPF'), 'bad-input'],
      [new SlabError('parallel vectors'), 'science'],
      [new SlabSelectionError('one slab'), 'science'],
      [new UsageError('give one objective'), 'usage'],
    ];
    for (const [e, code] of cases) {
      assert.ok(e instanceof DreamsError, `${e.name} is a DreamsError`);
      assert.equal(e.code, code, e.name);
      assert.equal(e.action, ERROR_CODES[e.code].action, `${e.name}: the code's action when none is given`);
      assert.equal(exitStatusOf(e), ERROR_CODES[e.code].exit);
    }
  });

  it('has no error class in src/ outside the root: every class that extends a built-in error is DreamsError', () => {
    const files = fs
      .readdirSync(path.join(ROOT, 'src'), { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile() && /\.tsx?$/.test(d.name))
      .map((d) => path.relative(ROOT, path.join(d.parentPath, d.name)).split(path.sep).join('/'));
    assert.ok(files.length > 300, `reads ${files.length} files of src/`);
    const builtIn =
      /\bclass\s+(\w+)(?:<[^>]*>)?\s+extends\s+(?:Error|TypeError|RangeError|SyntaxError|ReferenceError|EvalError|URIError|AggregateError)\b/g;
    const outside = files.flatMap((f) => [...fs.readFileSync(path.join(ROOT, f), 'utf8').matchAll(builtIn)].map((m) => `${f}: ${m[1]}`));
    assert.deepEqual(outside, ['src/core/errors.ts: DreamsError']);
  });

  it("keeps an action given with the error over its code's, and treats an error without a code as failed", () => {
    assert.equal(new DreamsError('setup', 'no pw.x', { action: 'Install pw.x.' }).action, 'Install pw.x.');
    assert.equal(exitStatusOf(new Error('plain')), 1);
  });
});
