/**
 * Short names of exchange-correlation functionals as QE writes them: the four-component
 * form in pseudopotential headers ("SLA PW PBX PBC") and the short form of input_dft
 * ("PBE", "pz", "LDA") map to one name so that the same functional compares equal.
 */
const BY_COMPONENTS: Record<string, string> = {
  'SLA PZ NOGX NOGC': 'PZ',
  'SLA PW NOGX NOGC': 'PW',
  'SLA PW PBX PBC': 'PBE',
  'SLA PW PBE PBE': 'PBE',
  'SLA PW PSX PSC': 'PBESOL',
  'SLA PW GGX GGC': 'PW91',
  'SLA LYP B88 BLYP': 'BLYP',
  'SLA PW TPSS TPSS': 'TPSS',
};

/** QE's aliases among short names (input_dft='LDA' is Perdew-Zunger). */
const ALIASES: Record<string, string> = { LDA: 'PZ', 'SLA+PZ': 'PZ', 'SLA+PW+PBX+PBC': 'PBE', 'SLA+PW+PSX+PSC': 'PBESOL' };

export function functionalName(raw: string): string {
  const tokens = raw.trim().toUpperCase().split(/\s+/).filter(Boolean);
  if (tokens.length === 0) return '';
  if (tokens.length === 1) return ALIASES[tokens[0]!] ?? tokens[0]!;
  return BY_COMPONENTS[tokens.slice(0, 4).join(' ')] ?? tokens.join(' ');
}
