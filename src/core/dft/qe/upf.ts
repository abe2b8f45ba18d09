/**
 * The header of a UPF pseudopotential (formats v1 and v2): element, functional,
 * pseudopotential type, valence, relativistic treatment and the cutoffs the generator
 * suggests, where the file states them (a stated 0 means "not stated").
 */
import { DreamsError } from '../../errors';
import { functionalName } from './functional';

export type PseudopotentialType = 'NC' | 'US' | 'PAW' | 'SL' | 'other';

export interface UpfHeader {
  format: 'UPF v1' | 'UPF v2';
  element: string;
  /** Short name when the components are a known functional (PBE, PZ, PBESOL, ...), else the components. */
  functional: string;
  /** The functional as the file spells it, e.g. "SLA PW PBX PBC". */
  functionalComponents: string;
  type: PseudopotentialType;
  zValence: number;
  relativistic?: 'no' | 'scalar' | 'full';
  coreCorrection?: boolean;
  spinOrbit?: boolean;
  suggestedEcutwfcRy?: number;
  suggestedEcutrhoRy?: number;
}

export class UpfReadError extends DreamsError<'bad-input'> {
  override readonly name = 'UpfReadError';
  constructor(message: string) {
    super('bad-input', message);
  }
}

const num = (s: string | undefined) => (s === undefined ? NaN : Number(s.trim().replace(/[dD]/, 'e')));
const bool = (s: string | undefined) => (s === undefined ? undefined : /^\s*\.?(t|true)\.?\s*$/i.test(s));
const positive = (x: number) => (Number.isFinite(x) && x > 0 ? x : undefined);

function decode(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function typeOf(raw: string): PseudopotentialType {
  const t = raw.trim().toUpperCase();
  if (t === 'NC' || t === 'SL') return t;
  if (t === 'US' || t === 'USPP') return 'US';
  if (t === 'PAW') return 'PAW';
  return 'other';
}

/** Cutoffs stated in PP_INFO ("Suggested minimum cutoff for wavefunctions: 44. Ry"). */
function infoCutoffs(text: string): { wfc?: number; rho?: number } {
  const wfc = /Suggested minimum cutoff for wavefunctions:\s*([\d.]+)\s*Ry/i.exec(text);
  const rho = /Suggested minimum cutoff for charge density:\s*([\d.]+)\s*Ry/i.exec(text);
  const out: { wfc?: number; rho?: number } = {};
  const w = positive(num(wfc?.[1]));
  const r = positive(num(rho?.[1]));
  if (w !== undefined) out.wfc = w;
  if (r !== undefined) out.rho = r;
  return out;
}

function readV2(text: string, file: string): UpfHeader {
  const m = /<PP_HEADER\b([\s\S]*?)\/?>/.exec(text);
  if (!m) throw new UpfReadError(`${file}: a UPF v2 file needs a <PP_HEADER .../> element; none found. Is the file complete?`);
  const attrs: Record<string, string> = {};
  for (const a of m[1]!.matchAll(/([\w:]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs[a[1]!.toLowerCase()] = decode(a[2] ?? a[3] ?? '');
  const element = (attrs.element ?? '').trim();
  const z = num(attrs.z_valence);
  if (!element || !Number.isFinite(z)) {
    throw new UpfReadError(
      `${file}: PP_HEADER lacks element or z_valence; pw.x cannot use this file either. Re-download or regenerate it.`,
    );
  }
  let type = typeOf(attrs.pseudo_type ?? '');
  if (bool(attrs.is_paw)) type = 'PAW';
  else if (type === 'other' && bool(attrs.is_ultrasoft)) type = 'US';
  const components = (attrs.functional ?? '').trim().replace(/\s+/g, ' ');
  const h: UpfHeader = {
    format: 'UPF v2',
    element,
    functional: functionalName(components),
    functionalComponents: components,
    type,
    zValence: z,
  };
  const rel = (attrs.relativistic ?? '').trim().toLowerCase();
  if (rel === 'no' || rel === 'scalar' || rel === 'full') h.relativistic = rel;
  const cc = bool(attrs.core_correction);
  if (cc !== undefined) h.coreCorrection = cc;
  const so = bool(attrs.has_so);
  if (so !== undefined) h.spinOrbit = so;
  const info = infoCutoffs(text.slice(0, m.index));
  const wfc = positive(num(attrs.wfc_cutoff)) ?? info.wfc;
  const rho = positive(num(attrs.rho_cutoff)) ?? info.rho;
  if (wfc !== undefined) h.suggestedEcutwfcRy = wfc;
  if (rho !== undefined) h.suggestedEcutrhoRy = rho;
  return h;
}

function readV1(text: string, file: string): UpfHeader {
  const m = /<PP_HEADER>([\s\S]*?)<\/PP_HEADER>/.exec(text);
  if (!m) throw new UpfReadError(`${file}: no <PP_HEADER> block; this is not a UPF file pw.x can read.`);
  const lines = m[1]!
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const field = (label: RegExp) => lines.find((l) => label.test(l));
  const element = field(/\bElement\b/)?.split(/\s+/)[0] ?? '';
  const typeLine = field(/pseudopotential|Norm\s*-\s*Conserving|PAW/i) ?? '';
  const xc = field(/Exchange-Correlation/i) ?? '';
  const z = num(field(/Z valence/i)?.split(/\s+/)[0]);
  if (!element || !Number.isFinite(z)) {
    throw new UpfReadError(`${file}: the UPF v1 header lacks the element or Z valence line. Re-download or regenerate the file.`);
  }
  const xcTokens = xc
    .replace(/Exchange-Correlation.*$/i, '')
    .trim()
    .split(/\s+/);
  const components = xcTokens.slice(0, 4).join(' ');
  const h: UpfHeader = {
    format: 'UPF v1',
    element,
    functional: xcTokens[4] ? xcTokens[4].toUpperCase() : functionalName(components),
    functionalComponents: components,
    type: typeOf(typeLine.split(/\s+/)[0] ?? ''),
    zValence: z,
  };
  const cc = field(/Nonlinear Core Correction/i)?.split(/\s+/)[0];
  if (cc !== undefined) h.coreCorrection = bool(cc)!;
  const cut = field(/Suggested cutoff/i)?.split(/\s+/);
  const wfc = positive(num(cut?.[0]));
  const rho = positive(num(cut?.[1]));
  if (wfc !== undefined) h.suggestedEcutwfcRy = wfc;
  if (rho !== undefined) h.suggestedEcutrhoRy = rho;
  const info = /<PP_INFO>([\s\S]*?)<\/PP_INFO>/.exec(text)?.[1] ?? '';
  if (/Fully-Relativistic/i.test(info)) h.relativistic = 'full';
  else if (/Scalar-Relativistic/i.test(info)) h.relativistic = 'scalar';
  else if (/Non-Relativistic/i.test(info)) h.relativistic = 'no';
  // pw.x's has_so: a v1 file carries spin-orbit data in PP_ADDINFO, after PP_RHOATOM near its end.
  // Without that far into the text (only its head was read) it is not known.
  if (/<PP_ADDINFO>/.test(text)) h.spinOrbit = true;
  else if (/<\/PP_RHOATOM>/.test(text)) h.spinOrbit = false;
  return h;
}

/** Reads the header of UPF text (the file's first part is enough once it contains PP_HEADER). */
export function readUpfHeader(text: string, file = 'UPF file'): UpfHeader {
  if (/<UPF\s+version\s*=\s*["']2/.test(text.slice(0, 4096))) return readV2(text, file);
  if (/<PP_HEADER>/.test(text)) return readV1(text, file);
  if (/<PP_HEADER\b/.test(text)) return readV2(text, file);
  throw new UpfReadError(
    `${file}: neither a UPF v2 (<UPF version="2...">) nor a UPF v1 (<PP_HEADER>) file. ` +
      'pw.x reads other formats (.vdb, .RRKJ3) by file name; convert them to UPF with upfconv.x to have their header read.',
  );
}
