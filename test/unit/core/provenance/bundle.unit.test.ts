import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { verifyBundle, writeBundle } from '../../../../src/core/provenance/bundle';
import { AL_SCF_INPUT, latticeConstantRun, useRuns } from './fixtures';
import { pseudopotentialsUsed } from '../../../../src/core/provenance/pseudopotentials';
import type { ArtifactRecord } from '../../../../src/core/provenance/types';

const newRun = useRuns();
const sha256 = (x: string | Buffer) => crypto.createHash('sha256').update(x).digest('hex');
const scratch: string[] = [];
after(() => scratch.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-bundle-'));
  scratch.push(d);
  return d;
}

/** A stand-in UPF file: only its bytes matter to the bundle. */
function pseudoDir(content = '<UPF version="2.0.1">Al test pseudopotential</UPF>\n'): string {
  const d = tmp();
  fs.writeFileSync(path.join(d, 'Al.pz-vbc.UPF'), content);
  return d;
}

describe('reproducibility bundle', () => {
  it('holds the log, PROV-JSON, inputs, outputs, files and pseudopotential hashes, and verifies', async () => {
    const run = await newRun();
    const pseudo = pseudoDir();
    const upf = fs.readFileSync(path.join(pseudo, 'Al.pz-vbc.UPF'));
    await latticeConstantRun(run, pseudo, sha256(upf));
    const out = path.join(tmp(), 'bundle');
    const m = await writeBundle(run, out);

    assert.deepEqual(m.problems, []);
    assert.equal(m.runId, run.runId);
    assert.deepEqual(m.software, { node: process.versions.node, 'pw.x': '6.7' });
    assert.equal(m.eventLog.events, run.log.lastSeq());
    assert.deepEqual(fs.readFileSync(path.join(out, 'events.jsonl')), fs.readFileSync(run.log.path));
    assert.deepEqual(
      m.inputs.artifacts.map((a) => a.id),
      ['a-2'],
    );
    assert.deepEqual(
      m.outputs.map((a) => a.id),
      ['a-1', 'a-3', 'a-4', 'a-5', 'a-6'],
    );
    assert.deepEqual(
      m.outputs.find((a) => a.id === 'a-5'),
      {
        id: 'a-5',
        kind: 'scalar',
        name: 'lattice_constant',
        status: 'final',
        contentHash: run.registry.artifact('a-5')!.contentHash,
        creator: 'c-4',
        value: 4.04,
        unit: 'Å',
      },
    );
    assert.deepEqual(
      m.inputs.literals.map((l) => `${l.call}.${l.parameter}`),
      ['c-1.element', 'c-1.ecutwfcListRy', 'c-2.kspacing', 'c-5.element'],
    );
    assert.deepEqual(m.pseudopotentials, [
      {
        element: 'Al',
        file: 'Al.pz-vbc.UPF',
        source: path.join(pseudo, 'Al.pz-vbc.UPF'),
        sha256: sha256(upf),
        bytes: upf.length,
        path: 'pseudo/Al.pz-vbc.UPF',
      },
    ]);
    const input = m.files.find((f) => f.path === run.registry.artifact('a-2')!.location)!;
    assert.equal(fs.readFileSync(path.join(out, input.path), 'utf8'), AL_SCF_INPUT(pseudo));
    assert.equal(input.sha256, sha256(AL_SCF_INPUT(pseudo)));
    assert.ok(JSON.parse(fs.readFileSync(path.join(out, 'provenance.json'), 'utf8')).entity['run:a-5']);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')), m);
    assert.deepEqual(verifyBundle(out), { ok: true, problems: [] });

    fs.appendFileSync(path.join(out, 'pseudo/Al.pz-vbc.UPF'), 'edited');
    const tampered = verifyBundle(out);
    assert.equal(tampered.ok, false);
    assert.match(tampered.problems[0]!, /pseudo\/Al\.pz-vbc\.UPF differs from the manifest/);
  });

  it('names a pseudopotential it cannot find, or one whose bytes changed since the run', async () => {
    const missing = await newRun();
    await latticeConstantRun(missing, '/nonexistent/pseudo');
    const m1 = await writeBundle(missing, path.join(tmp(), 'b'));
    assert.equal(m1.pseudopotentials.length, 0);
    assert.match(
      m1.problems.join('\n'),
      /pseudopotential Al\.pz-vbc\.UPF \(Al, named by a-2\) was not found in \/nonexistent\/pseudo.*pass its directory in pseudoDirs/,
    );

    const changed = await newRun();
    const pseudo = pseudoDir('<UPF>edited since the run</UPF>\n');
    await latticeConstantRun(changed, pseudo, sha256('<UPF>the original</UPF>\n'));
    const m2 = await writeBundle(changed, path.join(tmp(), 'b'), { includePseudopotentials: false });
    assert.match(
      m2.problems.join('\n'),
      /now has sha256 [0-9a-f]{64}, but the run recorded [0-9a-f]{64} \(a-2\): the file changed since the run/,
    );
    assert.equal(m2.pseudopotentials[0]!.path, undefined, 'hashed but not copied');
  });

  it('bundles only what one result depends on when asked', async () => {
    const run = await newRun();
    await latticeConstantRun(run, pseudoDir());
    const m = await writeBundle(run, path.join(tmp(), 'b'), { artifact: 'a-5' });
    assert.deepEqual([...m.inputs.artifacts, ...m.outputs].map((a) => a.id).sort(), ['a-1', 'a-2', 'a-4', 'a-5']);
  });

  it('refuses to write into a directory that already holds something', async () => {
    const run = await newRun();
    const out = tmp();
    fs.writeFileSync(path.join(out, 'old.txt'), 'x');
    await assert.rejects(writeBundle(run, out), /is not empty: choose a new directory/);
  });
});

describe('pseudopotentials a run used', () => {
  it('reads a species label by its element: fixed atoms as "Pt1" share the Pt file and are listed once, under Pt', () => {
    const input = [
      '&CONTROL',
      "  calculation = 'relax'",
      '/',
      '&SYSTEM',
      '  ibrav = 0',
      '  nat = 2',
      '  ntyp = 2',
      '  ecutwfc = 47',
      '/',
      '&ELECTRONS',
      '/',
      '&IONS',
      '/',
      'ATOMIC_SPECIES',
      '  Pt  195.08  Pt.pbe-n-rrkjus_psl.1.0.0.UPF',
      '  Pt1  195.08  Pt.pbe-n-rrkjus_psl.1.0.0.UPF',
      'CELL_PARAMETERS {angstrom}',
      '  2.8 0 0',
      '  1.4 2.4 0',
      '  0 0 12',
      'ATOMIC_POSITIONS {angstrom}',
      '  Pt1  0 1.6 5  0 0 0',
      '  Pt  0 0 7.3  1 1 1',
      'K_POINTS {automatic}',
      '  4 4 1 0 0 0',
      '',
    ].join('\n');
    const artifact = { id: 'a-1', kind: 'qe-input', name: 'pw_input' } as unknown as ArtifactRecord;
    assert.deepEqual(
      pseudopotentialsUsed([artifact], () => input).map((u) => [u.element, u.file]),
      [['Pt', 'Pt.pbe-n-rrkjus_psl.1.0.0.UPF']],
    );
  });
});
