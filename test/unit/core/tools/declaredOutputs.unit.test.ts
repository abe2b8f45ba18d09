// Tools declare what they make: every catalogue tool lists its artifacts from the one
// contract table, the registry refuses an artifact a tool did not declare (or of another
// kind or unit), workflow templates' $step.<id>.<name> hints name an output the step's tool
// declares, and the pw.x settings every pw.x tool takes are the one vocabulary.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import { consultAdvisorTool } from '../../../../src/core/agents/advisor';
import { ARTIFACTS } from '../../../../src/core/artifacts/contracts';
import { ARTIFACT } from '../../../../src/core/artifacts/shapes';
import { PW_ONLY_ARGUMENTS } from '../../../../src/core/calculators/fromArguments';
import { ProvenanceError } from '../../../../src/core/provenance/types';
import { declaredOutputs, defineTool } from '../../../../src/core/tools/defineTool';
import { PW_SETTINGS_PROPERTIES } from '../../../../src/core/tools/pwSettings';
import { ToolSetupError } from '../../../../src/core/tools/services';
import { call, useRuns } from '../provenance/fixtures';

const tools = [...new ToolRegistry().all(), consultAdvisorTool];
const contractNames = new Set<string>(Object.values(ARTIFACTS).map((c) => c.name));
const newRun = useRuns();

describe('tools declare their outputs', () => {
  it('every tool declares its artifacts, each one a contract of the table', () => {
    for (const t of tools) {
      assert.ok(t.outputs, `${t.name} declares no outputs`);
      for (const [name, o] of Object.entries(t.outputs)) {
        assert.ok(contractNames.has(name), `${t.name} declares "${name}", which the contract table does not list`);
        const contract = Object.values(ARTIFACTS).find((c) => c.name === name)!;
        assert.equal(o.kind, contract.kind, `${t.name}: ${name}`);
      }
    }
  });

  it('the contract table lists every artifact name the catalogue used, the BEEF ensemble included, once each', () => {
    const names = Object.values(ARTIFACTS).map((c) => c.name);
    assert.equal(new Set(names).size, names.length, 'a name is declared twice');
    for (const n of Object.values(ARTIFACT).flat()) assert.ok(contractNames.has(n), `"${n}" has no contract`);
    assert.ok(contractNames.has('beef_ensemble'));
    for (const c of Object.values(ARTIFACTS)) assert.ok(c.description.length > 10, `${c.name} says what it is`);
  });

  it('the registry refuses an artifact the tool did not declare, or one of another kind or unit, and stores nothing', async () => {
    const { registry } = await newRun();
    const declared = declaredOutputs([ARTIFACTS.totalEnergy]);
    const c = await registry.recordCall(call('probe'));
    const undeclared = (e: unknown) => e instanceof ProvenanceError && e.code === 'undeclared-artifact';
    await assert.rejects(
      registry.registerArtifacts(c.id, [{ kind: 'scalar', name: 'lattice_constant', value: 4.04, unit: 'Å' }], [], declared),
      (e: unknown) =>
        undeclared(e) && /does not declare an artifact "lattice_constant"; it declares "total_energy"/.test((e as Error).message),
    );
    await assert.rejects(
      registry.registerArtifacts(c.id, [{ kind: 'table', name: 'total_energy', value: { e: 1 } }], [], declared),
      (e: unknown) => undeclared(e) && /declared a scalar, and this one is a table/.test((e as Error).message),
    );
    await assert.rejects(
      registry.registerArtifacts(c.id, [{ kind: 'scalar', name: 'total_energy', value: -4, unit: 'Ry' }], [], declared),
      (e: unknown) => undeclared(e) && /declared in eV, and this one is in Ry/.test((e as Error).message),
    );
    assert.equal([...registry.artifacts()].length, 0, 'nothing of a refused call is registered');
    const [ok] = await registry.registerArtifacts(c.id, [{ kind: 'scalar', name: 'total_energy', value: -4, unit: 'eV' }], [], declared);
    assert.equal(ok!.name, 'total_energy');
  });

  it('a tool body gets its declared drafts from the contract and refuses to run without a required service', async () => {
    const tool = defineTool({
      name: 'probe',
      description: 'a probe of the tool definition',
      roles: ['dft'],
      rules: [],
      input: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'], additionalProperties: false },
      outputs: [ARTIFACTS.latticeConstant],
      requires: { canvas: 'the host opens the run canvas' },
      async run(args, ctx) {
        ctx.services.canvas.inspect();
        return { artifacts: [ctx.artifact(ARTIFACTS.latticeConstant, { value: args.x })], summary: 'ok' };
      },
    });
    assert.deepEqual(tool.outputs, { lattice_constant: { kind: 'scalar', unit: 'Å' } });
    const base = {
      runId: 'r',
      runDir: '/nonexistent',
      callId: 'c-1',
      resolve: () => undefined,
      progress: () => {},
      signal: new AbortController().signal,
    };
    await assert.rejects(
      tool.run({ x: 4 }, { ...base, services: { provenance: {} } } as never),
      (e: unknown) =>
        e instanceof ToolSetupError &&
        /probe needs the canvas service, which this run was not given: the host opens the run canvas/.test((e as Error).message),
    );
    const out = await tool.run({ x: 4.04 }, { ...base, services: { provenance: {}, canvas: { inspect: () => [] } } } as never);
    assert.deepEqual(out.artifacts, [{ value: 4.04, kind: 'scalar', name: 'lattice_constant', unit: 'Å' }]);
  });

  it("every workflow template's $step.<id>.<name> hint names an output the step's tool declares", () => {
    const byTool = new Map(tools.map((t) => [t.name, t.outputs]));
    const dir = path.resolve(__dirname, '../../../../src/core/workflows');
    const files = fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => path.join(dir, f));
    const text = files.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    // the tool of each step id: the first `tool: '...'` after `id: '<id>'` and before the next step's id
    const toolOfStep = new Map<string, Set<string>>();
    for (const chunk of text.split(/\bid: (?=')/).slice(1)) {
      const id = /^'([a-z0-9-]+)'/.exec(chunk)?.[1];
      const tool = /\btool: '([a-z_]+)'/.exec(chunk)?.[1];
      if (id && tool) toolOfStep.set(id, (toolOfStep.get(id) ?? new Set()).add(tool));
    }
    const hints = [...text.matchAll(/\$step\.([a-z0-9-]+)\.([a-z_]+)/g)].map((m) => ({ step: m[1]!, name: m[2]! }));
    assert.ok(hints.length > 30, `found ${hints.length} hints`);
    let checkedAgainstTool = 0;
    for (const h of hints) {
      assert.ok(contractNames.has(h.name), `$step.${h.step}.${h.name}: no artifact is called "${h.name}"`);
      const stepTools = toolOfStep.get(h.step);
      if (!stepTools) continue;
      checkedAgainstTool++;
      assert.ok(
        [...stepTools].some((t) => Object.hasOwn(byTool.get(t) ?? {}, h.name)),
        `$step.${h.step}.${h.name}: step ${h.step} runs ${[...stepTools].join(' or ')}, which does not declare "${h.name}"`,
      );
    }
    assert.ok(checkedAgainstTool > hints.length / 2, `only ${checkedAgainstTool} of ${hints.length} hints matched their step's tool`);
  });
});

describe('the pw.x settings vocabulary', () => {
  it('is the list of pw.x-only calculator arguments (with the backend), so EMT refuses exactly these', () => {
    assert.deepEqual([...Object.keys(PW_SETTINGS_PROPERTIES), 'backend'].sort(), [...PW_ONLY_ARGUMENTS].sort());
  });

  it('every tool that takes pw.x settings takes them in the same words', () => {
    const takers = tools.filter((t) => Object.hasOwn((t.schema as { properties: object }).properties, 'ecutwfcRy'));
    assert.deepEqual(takers.map((t) => t.name).sort(), [
      'adsorption_search',
      'evaluate_adsorption_hypothesis',
      'make_pw_input',
      'relax_structure',
    ]);
    for (const t of takers) {
      const props = (t.schema as { properties: Record<string, unknown> }).properties;
      for (const [k, schema] of Object.entries(PW_SETTINGS_PROPERTIES))
        assert.deepEqual(props[k], schema, `${t.name}.${k} differs from the vocabulary`);
    }
  });
});
