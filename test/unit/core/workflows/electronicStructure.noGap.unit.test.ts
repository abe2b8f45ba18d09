// A band-structure study whose bands show no gap of the crystal (a metal, or a half-metal) although the
// template planned a gap step: the offline planner drops the refused gap step, and the report says
// metal or half-metal from the bands themselves. Bands from QE 6.7 (test/fixtures/dft/qe-postprocessing/spin-bands).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { noGapEdits } from '../../../../src/core/agents/offlineProvider';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import type { BandPathValue, BandStructureValue } from '../../../../src/core/artifacts/electronic';
import { parsePwOutput } from '../../../../src/core/dft/qe/output/parse';
import { parseBandFile } from '../../../../src/core/dft/qe/postprocessing/bandsx';
import { applyPlanEdit } from '../../../../src/core/plan/edits';
import type { ComposeContext, Plan } from '../../../../src/core/plan/types';
import type { ProvenanceView } from '../../../../src/core/provenance/view';
import type { ToolCallRecord } from '../../../../src/core/provenance/types';
import { BAND_STRUCTURE_COMPOSERS } from '../../../../src/core/workflows/electronicStructure/report';
import { prepareWorkflow } from '../../../../src/core/workflows/objective';

const FIX = path.join(__dirname, '../../../fixtures/dft/qe-postprocessing/spin-bands');
const registry = new ToolRegistry();
const roles = (tool: string) => registry.get(tool)?.roles;

/** bands.x's two channels as the band_structure artifact holds them (bandsEv[band][k]). */
function bandStructure(name: string): BandStructureValue {
  const dir = path.join(FIX, name);
  const scf = parsePwOutput(fs.readFileSync(path.join(dir, 'scf.out'), 'utf8'));
  const channel = (file: string) => {
    const byK = parseBandFile(fs.readFileSync(path.join(dir, file), 'utf8')).energiesEv;
    return byK[0]!.map((_, n) => byK.map((e) => e[n]!));
  };
  const up = channel('bands.up.dat');
  const ef = scf.fermiEnergyEv!;
  return {
    x: up[0]!.map((_, k) => k),
    bandsEv: up,
    bandsDownEv: channel('bands.down.dat'),
    ticks: [],
    reference: { energyEv: ef, kind: 'fermi', source: 'SCF, pw.x' },
    kpoints: [],
    electrons: scf.settings.electrons!,
    nspin: 2,
    occupations: 'smearing',
    fermiEnergyEv: ef,
    magnetizationMuBPerCell: scf.totalMagnetization as number,
    lattice: 'FCC',
    convention: 'Setyawan-Curtarolo 2010',
  } as BandStructureValue;
}

const PATH: Partial<BandPathValue> = {
  segments: [['Γ', 'X']],
  convention: 'Setyawan-Curtarolo 2010',
  lattice: 'FCC',
  spaceGroup: { symbol: 'F-43m' } as BandPathValue['spaceGroup'],
  kpointCount: 40,
};

function reportText(bs: BandStructureValue): string {
  const values: Record<string, unknown> = { 'a-9': bs, 'a-4': PATH };
  const refs: Record<string, string> = { 'bands-x/band_structure': 'a-9', 'band-path/band_path': 'a-4' };
  const ctx = {
    provenance: {} as ProvenanceView,
    ref: (step: string, name: string) => refs[`${step}/${name}`],
    refs: () => [],
    value: (ref: string) => values[ref],
    inputs: {
      species: ['Ca', 'N'],
      structure: 'zincblende',
      latticeConstantAngstrom: 5.36,
      settings: { functional: 'PBE', ecutwfcRy: 46, kSpacingPerAngstrom: 0.4, toleranceMevPerAtom: 1 },
      occupations: 'smearing',
      smearing: 'mv',
      degaussRy: 0.02,
      spinPolarized: true,
      startingMagnetization: { N: 0.5 },
    },
  } as unknown as ComposeContext;
  return BAND_STRUCTURE_COMPOSERS.text!(ctx as never) as string;
}

function canPlan(): Plan {
  const { steps } = prepareWorkflow(
    'band-structure',
    {
      elements: ['Ca', 'N'],
      structure: 'zincblende',
      latticeConstantAngstrom: 5.36,
      functional: 'PBE',
      ecutwfcRy: 46,
      kSpacingPerAngstrom: 0.4,
      spinPolarized: true,
    },
    {},
  );
  const done = new Set(['structure', 'pseudopotentials', 'scf-input', 'scf', 'band-path', 'bands-input', 'bands', 'bands-x']);
  return {
    objective: 'band structure of zincblende CaN with PBE',
    workflow: 'band-structure',
    steps: steps.map((s) => ({ ...s, status: done.has(s.id) ? 'done' : s.id === 'gap' ? 'failed' : 'pending' })),
    version: 1,
  };
}

const gapCall = (rule: string, status: ToolCallRecord['status'] = 'refused'): ToolCallRecord =>
  ({
    id: 'c-9',
    tool: 'band_gap',
    args: { bands: { value: 'a-9' } },
    reasons: {},
    context: 'step gap',
    verdicts: [{ rule, level: 'fail', reasons: ['no band gap: ... a half-metal in this calculation ...'] }],
    agent: { role: 'dft' },
    startedAt: '2026-12-05T09:38:23.000Z',
    status,
    outputs: [],
  }) as unknown as ToolCallRecord;

const provenanceWith = (occupations: string) =>
  ({ artifact: (id: string) => (id === 'a-9' ? { id, value: { occupations } } : undefined) }) as unknown as ProvenanceView;

describe('a band structure with no gap of the crystal: the gap step dropped, the report says metal or half-metal', () => {
  it('reports zincblende CaN as a half-metal: the gapped majority channel, its gap as that channel only, the minority band at E_F', () => {
    const text = reportText(bandStructure('can-zb'));
    assert.match(
      text,
      /A half-metal in this calculation \(a-9\): the majority \(spin-up\) channel has a gap of 3\.606 eV at the Fermi level \(5\.240 eV; 8 bands below it\), while band 7 of the minority \(spin-down\) channel crosses it \(4\.787 to 5\.631 eV\)/,
    );
    assert.match(
      text,
      /The crystal has no gap to claim: 3\.606 eV is the majority \(spin-up\) channel's only; the total magnetization is 1\.00 μB per cell/,
    );
    assert.doesNotMatch(text, /a metal, no gap/);
  });

  it('still reports bcc Fe, both channels across E_F, as a metal', () => {
    const text = reportText(bandStructure('fe'));
    assert.match(text, /The bands of both spin channels cross the Fermi level \(12\.783 eV\): a metal, no gap\./);
  });

  it('drops a gap step refused by no-gap-from-metal on smeared bands: the report depends on bands-x and claims no gap', () => {
    let plan = canPlan();
    const gap = plan.steps.find((s) => s.id === 'gap')!;
    const edits = noGapEdits(plan, gap, gapCall('no-gap-from-metal'), provenanceWith('smearing'));
    assert.ok(edits, 'edits for a no-gap-from-metal refusal');
    for (const e of edits as { op: string; reason: string }[]) {
      // as the edit_plan tool applies them: the reason is recorded beside a modify, inside a delete
      const { reason, ...edit } = e;
      const r = applyPlanEdit(plan, e.op === 'delete' ? { ...edit, reason } : edit, roles);
      assert.ok(r.ok, r.ok ? '' : r.reason);
      plan = r.plan;
    }
    assert.equal(
      plan.steps.some((s) => s.id === 'gap'),
      false,
    );
    const report = plan.steps.find((s) => s.id === 'report')!;
    assert.deepEqual(report.dependsOn, ['bands-x']);
    assert.equal(report.reportQuantities?.includes('band_gap'), false);
    assert.equal(report.reportQuantities?.includes('direct_gap'), false);
    assert.ok(report.reportQuantities?.includes('kpoint_count'));
    assert.match(report.title, /Report the band structure and the settings behind it \(no gap of the crystal to claim\)/);
    assert.equal(report.status, 'pending');
  });

  it('leaves the run to stop for fixed occupations (a metal then means a wrong SCF) and for any other refusal', () => {
    const plan = canPlan();
    const gap = plan.steps.find((s) => s.id === 'gap')!;
    assert.equal(noGapEdits(plan, gap, gapCall('no-gap-from-metal'), provenanceWith('fixed')), undefined);
    assert.equal(noGapEdits(plan, gap, gapCall('upstream-final'), provenanceWith('smearing')), undefined);
    assert.equal(noGapEdits(plan, gap, gapCall('no-gap-from-metal', 'failed'), provenanceWith('smearing')), undefined);
  });
});
