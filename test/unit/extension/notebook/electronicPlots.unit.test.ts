import assert from 'node:assert/strict';
import type { CanvasEvent } from '../../../../src/core/canvas/types';
import { CanvasProjection } from '../../../../src/core/report/canvasProjection';
import { CANVAS_MIME, type PlotData } from '../../../../src/shared/canvasOutputs';

let seq = 0;
const ev = (kind: string, payload: unknown): CanvasEvent =>
  ({ v: 1, seq: ++seq, ts: '', crc: '', actor: { kind: 'framework', id: 't' }, kind, payload }) as CanvasEvent;
const artifact = (id: string, name: string, value: unknown) =>
  ev('provenance.artifact', {
    id,
    kind: 'table',
    name,
    creator: 'c-1',
    inputs: [],
    concerns: [],
    status: 'final',
    contentHash: id,
    createdAt: '',
    value,
  });
const plots = (p: CanvasProjection) =>
  p
    .cells()
    .flatMap((c) => c.outputs ?? [])
    .filter((o) => o.mime === CANVAS_MIME.plot)
    .map((o) => o.data as PlotData);

describe('band-structure and DOS plots in the notebook', () => {
  it("hands the renderer a band_structure, dos and pdos artifact's value as the plot data, linked to the artifact", () => {
    const p = new CanvasProjection();
    p.apply(
      ev('provenance.call', {
        id: 'c-1',
        tool: 'run_bands_x',
        args: {},
        reasons: {},
        context: '',
        verdicts: [],
        agent: { role: 'hpc' },
        startedAt: '',
        status: 'ok',
        outputs: [],
      }),
    );
    const bands = {
      x: [0, 0.5, 1],
      bandsEv: [
        [-5, -4, -3],
        [6, 5.5, 5],
      ],
      ticks: [
        { x: 0, label: 'Γ' },
        { x: 1, label: 'X' },
      ],
      reference: { energyEv: 6, kind: 'vbm' },
    };
    p.apply(artifact('a-1', 'band_structure', bands));
    p.apply(artifact('a-2', 'dos', { energiesEv: [0, 1, 2], total: [0, 1, 0.5], fermiEnergyEv: 1.5 }));
    p.apply(
      artifact('a-3', 'pdos', {
        energiesEv: [0, 1, 2],
        total: [0, 1, 0.5],
        projections: [{ label: 'Al s', species: 'Al', l: 's', dos: [0, 0.4, 0.2] }],
        lowdin: [],
      }),
    );
    const got = plots(p);
    const bs = got.find((x) => x.kind === 'band-structure') as Extract<PlotData, { kind: 'band-structure' }>;
    assert.deepEqual(
      bs.data.ticks.map((t) => t.label),
      ['Γ', 'X'],
    );
    assert.equal(bs.artifact, 'a-1');
    assert.deepEqual(
      got.filter((x) => x.kind === 'dos').map((x) => x.artifact),
      ['a-2', 'a-3'],
    );
  });

  it('marks the band edges on the band plot once band_gap has computed them from it, and takes them off when that gap goes stale', () => {
    const p = new CanvasProjection();
    const call = (id: string, tool: string) =>
      ev('provenance.call', {
        id,
        tool,
        step: tool === 'band_gap' ? 'gap' : 'bands-x',
        args: {},
        reasons: {},
        context: '',
        verdicts: [],
        agent: { role: 'dft' },
        startedAt: '',
        status: 'ok',
        outputs: [],
      });
    p.apply(call('c-1', 'run_bands_x'));
    p.apply(
      artifact('a-1', 'band_structure', {
        x: [0, 0.5, 1],
        bandsEv: [
          [5, 5.5, 6],
          [7, 6.7, 6.9],
        ],
        ticks: [
          { x: 0, label: 'Γ' },
          { x: 1, label: 'X' },
        ],
        reference: { energyEv: 6, kind: 'vbm' },
      }),
    );
    const bandPlot = () => plots(p).find((x) => x.kind === 'band-structure') as Extract<PlotData, { kind: 'band-structure' }>;
    assert.equal(bandPlot().data.gap, undefined, 'no gap before band_gap');
    p.apply(call('c-2', 'band_gap'));
    const gap = ev('provenance.artifact', {
      id: 'a-2',
      kind: 'table',
      name: 'band_gap',
      creator: 'c-2',
      inputs: ['a-1'],
      concerns: [],
      status: 'final',
      contentHash: 'a-2',
      createdAt: '',
      value: {
        gapEv: 0.7,
        direct: false,
        vbm: { energyEv: 6, k: [0, 0, 0], x: 1, location: 'X', nearest: 'X' },
        cbm: { energyEv: 6.7, k: [0.5, 0, 0], x: 0.5, location: '0.5 of Γ–X', nearest: 'X' },
        directGapEv: 0.9,
        directGapLocation: 'X',
        occupiedBands: 1,
      },
    });
    // the band plot's cell (another step's) is rebuilt: a live notebook redraws it
    assert.ok(p.apply(gap).includes('steps/bands-x'), 'the band structure step changes with the gap');
    assert.deepEqual(bandPlot().data.gap, { gapEv: 0.7, direct: false, vbm: { x: 1, energyEv: 6 }, cbm: { x: 0.5, energyEv: 6.7 } });
    assert.ok(p.apply(ev('provenance.status', { ids: ['a-2'], status: 'stale' })).includes('steps/bands-x'));
    assert.equal(bandPlot().data.gap, undefined, 'a stale gap is not marked');
  });

  it('draws nothing for a band_structure without bands (a value it cannot plot)', () => {
    const p = new CanvasProjection();
    p.apply(
      ev('provenance.call', {
        id: 'c-1',
        tool: 'run_bands_x',
        args: {},
        reasons: {},
        context: '',
        verdicts: [],
        agent: { role: 'hpc' },
        startedAt: '',
        status: 'ok',
        outputs: [],
      }),
    );
    p.apply(artifact('a-1', 'band_structure', { x: [] }));
    assert.equal(plots(p).length, 0);
  });
});
