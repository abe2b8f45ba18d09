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
