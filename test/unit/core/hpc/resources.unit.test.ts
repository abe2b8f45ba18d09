import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { overrideResources, suggestResources, suggestResourcesWithin } from '../../../../src/core/hpc/resources';
import { describePwInputSize } from '../../../../src/core/dft/qe/jobFacts';

const al = fs.readFileSync(path.resolve(__dirname, '../../../fixtures/hpc/al-fcc-scf.in'), 'utf8');
const limits = { maxNtasks: 128, maxNodes: 4, maxWalltimeMinutes: 2880, maxMemoryMb: 256_000, coresPerNode: 64 };
const profile = { name: 'hpc', limits, partition: 'standard' };

describe('resource suggestion', () => {
  it('reads the size of a pw.x input', () => {
    assert.deepEqual(describePwInputSize(al), { atoms: 1, kPoints: 216, ecutwfcRy: 15, calculation: 'scf', nspin: 1 });
    assert.throws(() => describePwInputSize(al.replace('ecutwfc', 'ecutwfcc')), /does not give ecutwfc/);
  });

  it('gives a tiny job one task and a short walltime, and says why', () => {
    const r = suggestResources(describePwInputSize(al), profile);
    assert.deepEqual([r.ntasks, r.nodes, r.walltimeMinutes, r.partition], [1, 1, 10, 'standard']);
    assert.match(r.reason, /1 atom\(s\), 216 k-point\(s\).*ecutwfc 15 Ry/);
  });

  it('grows with atoms, k-points and cutoff, and stays inside the profile limits', () => {
    const small = suggestResources({ atoms: 8, kPoints: 8, ecutwfcRy: 30, calculation: 'scf', nspin: 1 }, profile);
    const slab = suggestResources({ atoms: 60, kPoints: 16, ecutwfcRy: 40, calculation: 'relax', nspin: 2 }, profile);
    assert.ok(slab.ntasks > small.ntasks && slab.walltimeMinutes > small.walltimeMinutes && slab.memoryMb! > small.memoryMb!);
    const tight = suggestResources(
      { atoms: 200, kPoints: 64, ecutwfcRy: 60, calculation: 'relax', nspin: 2 },
      { limits: { maxNtasks: 32, maxWalltimeMinutes: 720, maxMemoryMb: 64_000, coresPerNode: 16, maxNodes: 2 } },
    );
    assert.ok(tight.ntasks <= 32 && tight.nodes <= 2 && tight.walltimeMinutes <= 720 && tight.memoryMb! <= 64_000);
    assert.equal(tight.nodes, Math.ceil(tight.ntasks / 16) > 2 ? 2 : Math.ceil(tight.ntasks / 16));
    assert.match(tight.reason, /capped at the profile limits/);
  });

  it("keeps inside the partition's own limits as well, and says when it cut the walltime to them", () => {
    const slab = { atoms: 60, kPoints: 16, ecutwfcRy: 40, calculation: 'relax', nspin: 2 };
    const free = suggestResources(slab, profile);
    assert.ok(free.walltimeMinutes > 15, `${free.walltimeMinutes} min`);
    const cut = suggestResourcesWithin(slab, profile, { name: 'short', isDefault: false, maxWalltimeMinutes: 15, maxNodes: 1 });
    assert.equal(cut.walltimeMinutes, 15);
    assert.equal(cut.nodes, 1);
    assert.match(cut.reason, new RegExp(`cut to the limits of partition "short" \\(walltime ${free.walltimeMinutes} → 15 min`));
    // a partition that allows more changes nothing, and neither does an unknown one
    assert.deepEqual(suggestResourcesWithin(slab, profile, { name: 'long', isDefault: true, maxWalltimeMinutes: 100_000 }), free);
    assert.deepEqual(suggestResourcesWithin(slab, profile, undefined), free);
  });

  it('records an override with its reason and the suggestion it replaced; refuses one beyond the limits', () => {
    const suggested = suggestResources(describePwInputSize(al), profile);
    const o = overrideResources(suggested, { walltimeMinutes: 120 }, 'the previous attempt hit the 10 min limit', profile);
    assert.equal(o.walltimeMinutes, 120);
    assert.equal(o.reason, 'override: the previous attempt hit the 10 min limit');
    assert.equal(o.suggested!.walltimeMinutes, 10);
    assert.throws(() => overrideResources(suggested, { ntasks: 4 }, '  ', profile), /needs a reason/);
    assert.throws(
      () => overrideResources(suggested, { ntasks: 4096 }, 'more', profile),
      /exceeds the limits of cluster profile "hpc": ntasks 4096 > 128/,
    );
    assert.throws(() => overrideResources(suggested, { nodes: 0 }, 'none', profile), /whole number/);
  });
});
