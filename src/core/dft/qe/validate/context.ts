/** What every validation rule sees: the parsed input, the definitions of its QE version, and pseudopotential headers when known. */
import type { QeDefinitionIndex, QeVersion } from '../definitions';
import type { PwInput } from '../input/model';
import { numberIn, stringIn, logicalIn } from '../input/query';
import type { UpfHeader } from '../upf';
import type { Diagnostic } from './diagnostic';

export interface PseudoInfo {
  /** Species label from ATOMIC_SPECIES. */
  label: string;
  file: string;
  header?: UpfHeader;
  /** Why the header could not be read (missing file, not UPF). */
  problem?: string;
}

export interface ValidationContext {
  input: PwInput;
  version: QeVersion;
  defs: QeDefinitionIndex;
  /** Definitions of the other QE versions, to explain names one version has and another lacks. */
  otherDefs: QeDefinitionIndex[];
  /** Per species label, when the pseudopotential headers were supplied. */
  pseudos?: PseudoInfo[];
  report(d: Diagnostic): void;
}

/** Values rules read often, with pw.x's defaults. */
export function calculationOf(c: ValidationContext): string {
  return stringIn(c.input, 'control', 'calculation') ?? 'scf';
}
export function nspinOf(c: ValidationContext): number {
  return numberIn(c.input, 'system', 'nspin') ?? 1;
}
export function noncollinear(c: ValidationContext): boolean {
  return logicalIn(c.input, 'system', 'noncolin') === true;
}
export function occupationsOf(c: ValidationContext): string {
  return stringIn(c.input, 'system', 'occupations') ?? 'fixed';
}
