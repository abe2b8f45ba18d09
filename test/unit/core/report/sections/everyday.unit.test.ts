import assert from 'node:assert/strict';
import path from 'node:path';
import { ToolRegistry } from '../../../../../src/core/agents/toolRegistry';
import { ApprovalBook } from '../../../../../src/core/guard/approvals';
import { guardedCall, type GuardContext } from '../../../../../src/core/guard/guardedCall';
import { readStructureFile } from '../../../../../src/core/dft/io/structureFile';
import type { PhysicalSettings } from '../../../../../src/core/dft/types';
import { everydayReportSection } from '../../../../../src/core/report/sections/everyday';
import type { RelaxationValue } from '../../../../../src/core/artifacts/relaxation';
import { MemoryEventLog } from '../../guard/support/memoryEventLog';
import { MemoryProvenance } from '../../guard/support/memoryProvenance';
import { FIXTURES, runDir, seedRun } from '../../tools/support/seedRun';

const registry = new ToolRegistry();
const settings: PhysicalSettings = {
  code: 'pw.x',
  functional: 'PBE',
  ecutwfcRy: 16,
  ecutrhoRy: 64,
  pseudopotentials: { Si: { file: 'Si.pbe-rrkj.UPF' } },
  kMesh: [3, 3, 3],
  occupations: 'fixed',
  nspin: 1,
};

async function relaxation(file: string, input: string) {
  const p = new MemoryProvenance();
  const dir = runDir();
  const { source: _s, ...structure } = readStructureFile(path.join(FIXTURES, 'qe/runs', input));
  const run = await seedRun(p, dir, { outputFile: `qe/runs/${file}`, structure, calculation: 'vc-relax', settings });
  const ctx: GuardContext = {
    provenance: p,
    approvals: new ApprovalBook(new MemoryEventLog()),
    policy: 'auto-approve',
    run: { runId: 'r', runDir: dir, signal: new AbortController().signal, progress: () => {}, services: {} },
  };
  const out = await guardedCall(
    registry.get('relaxation_result')!,
    { tool: 'relaxation_result', args: { relaxation: run.energy.id }, refs: {}, reasons: {}, context: 't', agent: { role: 'dft' } },
    ctx,
  );
  assert.equal(out.status, 'ok', JSON.stringify(out));
  return p;
}

describe('report sections of relaxations, magnetization and energy differences', () => {
  it("draws a relaxation's energy and largest force per geometry as one SVG of two panels, with its table and checks", async () => {
    const p = await relaxation('si-vc-relax.out', 'si-vc-relax.in');
    const a = p.artifacts().find((x) => x.name === 'relaxation')!;
    const v = a.value as RelaxationValue;
    const section = everydayReportSection(p.artifacts())!;
    const svg = section.plots[`relaxation-${a.id}.svg`]!;
    assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.equal((svg.match(/<svg /g) ?? []).length, 3, 'an outer SVG with two panels');
    assert.match(svg, /E − E_final \(meV\)/);
    assert.match(svg, /forc_conv_thr 0\.0257 eV\/Å/);
    const md = section.markdown.join('\n');
    assert.match(md, new RegExp(`!\\[trajectory\\]\\(plots/relaxation-${a.id}\\.svg\\)`));
    assert.match(md, /Converged \(final\): largest force component/);
    // one table row per geometry, the last the final SCF at the relaxed cell, 0 meV from itself
    assert.equal((md.match(/^\| \d+( \(final SCF\))? \|/gm) ?? []).length, v.steps.length);
    assert.match(md, /^\| 8 \(final SCF\) \| 0\.00 \|/m);
  });

  it('says a relaxation is not converged, and why', async () => {
    const p = await relaxation('si-vc-final.out', 'si-vc-final.in');
    const md = everydayReportSection(p.artifacts())!.markdown.join('\n');
    assert.match(md, /\*\*Not converged\*\* \(provisional\): final-scf-above-thresholds/);
  });

  it('has nothing to say for a run with none of these results', () => {
    assert.equal(everydayReportSection([]), undefined);
  });
});
