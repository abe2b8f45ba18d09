/**
 * The multi-line blocks of pw.x output (crystal axes, positions, cells, forces, stress, the
 * error frame, messages, BEEF energies, pseudopotentials, energy terms): while one is open,
 * each line goes here first.
 */
import type { Cell, Vec3 } from '../../types';
import { BOHR_IN_ANGSTROM, ENERGY_TERMS, numbers } from './lineText';
import type { EnergyTermsRy, PseudopotentialUsed, RunSettingsPrinted, ScfCycle } from './types';

/** What a block reads and writes of the line reader (PwOutputReader). */
export interface BlockHost {
  block: Block;
  settings: RunSettingsPrinted;
  cellAngstrom?: Cell;
  pendingGeometry?: { cellAngstrom?: Cell };
  scf?: ScfCycle;
  beefEnsemble?: number[];
  lines: number;
  ensureStep(): { forcesRyPerBohr?: Vec3[]; stressKbar?: [Vec3, Vec3, Vec3] };
  closeError(lines: string[], start: number | undefined): void;
  message(lines: string[]): void;
  setPendingGeometry(symbols: string[], positions: Vec3[], unit: string): void;
}

export type Block =
  | { kind: 'none' }
  | { kind: 'axes'; rows: Vec3[] }
  | { kind: 'sites'; symbols: string[]; positions: Vec3[]; unit: string }
  | { kind: 'positions'; symbols: string[]; positions: Vec3[]; unit: string }
  | { kind: 'cell'; rows: Vec3[]; unit: string; alatBohr?: number }
  | { kind: 'forces'; forces: Vec3[]; seenAtom: boolean }
  | { kind: 'stress'; rows: Vec3[] }
  | { kind: 'error'; lines: string[]; start?: number }
  | { kind: 'banner' }
  | { kind: 'message'; lines: string[] }
  | { kind: 'beef'; values: number[] }
  | { kind: 'pseudo'; entry: PseudopotentialUsed }
  | { kind: 'terms'; terms: EnergyTermsRy };

/** Continues the open block with a line; returns true when the line was consumed by it. */
/** Ends a multi-line block; returns true when the line was consumed by it. */
export function continueBlock(r: BlockHost, t: string): boolean {
  const b = r.block;
  switch (b.kind) {
    case 'none':
      return false;
    case 'axes': {
      if (/^[ab]\(\d\)\s*=/.test(t)) {
        const v = numbers(t.slice(t.indexOf('=') + 1));
        if (t[0] === 'a') b.rows.push([v[0]!, v[1]!, v[2]!]);
        if (b.rows.length === 3) {
          const alat = (r.settings.alatBohr ?? 0) * BOHR_IN_ANGSTROM;
          r.cellAngstrom = b.rows.map((r) => r.map((x) => x * alat)) as Cell;
          if (r.pendingGeometry) r.pendingGeometry.cellAngstrom = r.cellAngstrom;
          r.block = { kind: 'none' };
        }
        return true;
      }
      r.block = { kind: 'none' };
      return false;
    }
    case 'sites': {
      const m = /^\d+\s+(\S+)\s+tau\(\s*\d+\)\s*=\s*\((.*)\)/.exec(t);
      if (m) {
        const v = numbers(m[2]!);
        b.symbols.push(m[1]!);
        b.positions.push([v[0]!, v[1]!, v[2]!]);
        return true;
      }
      r.setPendingGeometry(b.symbols, b.positions, b.unit);
      return false;
    }
    case 'positions': {
      if (t !== '' && !t.startsWith('End') && /^[A-Za-z]/.test(t)) {
        const parts = t.split(/\s+/);
        const v = parts.slice(1, 4).map((x) => Number(x.replace(/[dD]/, 'e')));
        if (v.length === 3 && v.every((x) => Number.isFinite(x))) {
          b.symbols.push(parts[0]!);
          b.positions.push(v as Vec3);
          return true;
        }
      }
      r.setPendingGeometry(b.symbols, b.positions, b.unit);
      return t === '';
    }
    case 'cell': {
      const v = numbers(t);
      if (v.length === 3 && b.rows.length < 3) {
        b.rows.push(v as Vec3);
        if (b.rows.length === 3) {
          const f =
            b.unit === 'angstrom' ? 1 : b.unit === 'bohr' ? BOHR_IN_ANGSTROM : (b.alatBohr ?? r.settings.alatBohr ?? 0) * BOHR_IN_ANGSTROM;
          r.cellAngstrom = b.rows.map((r) => r.map((x) => x * f)) as Cell;
          r.block = { kind: 'none' };
        }
        return true;
      }
      r.block = { kind: 'none' };
      return false;
    }
    case 'forces': {
      if (t.startsWith('atom')) {
        const k = t.indexOf('force =');
        if (k < 0) return false;
        const v = numbers(t.slice(k + 7));
        b.forces.push([v[0]!, v[1]!, v[2]!]);
        b.seenAtom = true;
        return true;
      }
      if (t === '' && !b.seenAtom) return true;
      r.ensureStep().forcesRyPerBohr = b.forces;
      r.block = { kind: 'none' };
      return false;
    }
    case 'stress': {
      const v = numbers(t);
      if (v.length === 6) {
        b.rows.push([v[3]!, v[4]!, v[5]!]);
        if (b.rows.length === 3) {
          r.ensureStep().stressKbar = b.rows as [Vec3, Vec3, Vec3];
          r.block = { kind: 'none' };
        }
        return true;
      }
      r.block = { kind: 'none' };
      return false;
    }
    case 'banner':
      if (t.startsWith('%%%%')) r.block = { kind: 'none' };
      return true;
    case 'error': {
      // A framed notice (the vdW-DF citation request) looks like the error frame but every line starts with "%".
      if (b.lines.length === 0 && t.startsWith('%') && !t.startsWith('%%%%')) {
        r.block = { kind: 'banner' };
        return true;
      }
      if (t.startsWith('%%%%')) {
        r.closeError(b.lines, b.start);
        r.block = { kind: 'none' };
      } else {
        if (!b.lines.length) b.start = r.lines;
        b.lines.push(t);
      }
      return true;
    }
    case 'message': {
      // infomsg prints "Message from routine X:" and its message on one line: the line after
      // that is output again (it was once taken as more of the message), and a second
      // "Message from routine" starts a message of its own.
      if (t.startsWith('Message from routine')) {
        r.message(b.lines);
        r.block = { kind: 'message', lines: [t] };
        return true;
      }
      if (t === '' || t.startsWith('%%%%')) {
        r.message(b.lines);
        r.block = { kind: 'none' };
        return t === '';
      }
      r.message([...b.lines, t]);
      r.block = { kind: 'none' };
      return true;
    }
    case 'terms': {
      const m = /^(?:->\s*)?(.*?)\s*=\s*([-+]?[\d.]+(?:[eEdD][-+]?\d+)?)\s*Ry$/.exec(t);
      if (m) {
        const key = ENERGY_TERMS[m[1]!];
        if (key) b.terms[key] = Number(m[2]!.replace(/[dD]/, 'e'));
        return true;
      }
      const scf = r.scf;
      if (scf && Object.keys(b.terms).length) scf.energyTermsRy = { ...scf.energyTermsRy, ...b.terms };
      r.block = { kind: 'none' };
      return t === '';
    }
    case 'beef': {
      if (t === '') {
        if (b.values.length) {
          r.beefEnsemble = b.values;
          r.block = { kind: 'none' };
        }
        return true;
      }
      const v = Number(t.replace(/[dD]/, 'e'));
      if (Number.isFinite(v) && /^[-+.\d]/.test(t)) {
        b.values.push(v);
        return true;
      }
      r.beefEnsemble = b.values;
      r.block = { kind: 'none' };
      return false;
    }
    case 'pseudo': {
      const e = b.entry;
      if (!e.path && t !== '') {
        e.path = t;
        return true;
      }
      if (t.startsWith('MD5 check sum:')) {
        e.md5 = t.slice(14).trim();
        return true;
      }
      const pseudo = /^Pseudo is ([^,]+),\s*Zval\s*=\s*([\d.]+)/.exec(t);
      if (pseudo) {
        e.kind = pseudo[1]!.trim();
        e.zValence = Number(pseudo[2]);
        r.block = { kind: 'none' };
        return true;
      }
      if (t === '' || t.startsWith('Generated') || t.startsWith('Using') || t.startsWith('l(') || t.startsWith('Q(r)')) return false;
      return false;
    }
  }
}
