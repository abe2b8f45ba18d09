/**
 * The Sol27LC elements as the bench sees them: structure and experimental lattice
 * constant from the reference fixture (with the DREAMS agent's and the expert's values),
 * and the pseudopotential file for each element in the chosen directory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { findPseudopotential } from '../../../src/core/workflows/environment';

export const REFERENCE_CSV = path.resolve(__dirname, '../../../test/fixtures/workflows/sol27lc_reference.csv');

export interface Sol27Element {
  element: string;
  structure: 'fcc' | 'bcc' | 'diamond';
  aExpAngstrom: number;
  aExpertAngstrom: number;
  aDreamsAngstrom: number;
  dreamsKPerDirection: number;
  dreamsEcutwfcRy: number;
}

export function readSol27(file = REFERENCE_CSV): Sol27Element[] {
  const [head, ...rows] = fs.readFileSync(file, 'utf8').trim().split('\n');
  const cols = head!.split(',');
  const at = (r: string[], c: string) => r[cols.indexOf(c)]!;
  return rows.map((line) => {
    const r = line.split(',');
    return {
      element: at(r, 'element'),
      structure: at(r, 'structure') as Sol27Element['structure'],
      aExpAngstrom: Number(at(r, 'a_exp_A')),
      aExpertAngstrom: Number(at(r, 'a_human_expert_A')),
      aDreamsAngstrom: Number(at(r, 'a_dreams_agent_A')),
      dreamsKPerDirection: Number(at(r, 'agent_kpoints_per_dir')),
      dreamsEcutwfcRy: Number(at(r, 'agent_ecutwfc_Ry')),
    };
  });
}

/**
 * The PBE file for an element: the library's own choice when it ships an index.json
 * ({ "Ir": { "pbe": "Ir.pbe-spn-..." } }, as pslibrary-derived sets do), else the
 * scalar-relativistic PBE file whose header names the element.
 */
export function pbePseudopotential(dir: string, element: string): string | undefined {
  const index = path.join(dir, 'index.json');
  if (fs.existsSync(index)) {
    const entry = (JSON.parse(fs.readFileSync(index, 'utf8')) as Record<string, { pbe?: string }>)[element];
    if (entry?.pbe && fs.existsSync(path.join(dir, entry.pbe))) return entry.pbe;
  }
  return findPseudopotential(dir, { element, functional: 'PBE' })?.file;
}
