/**
 * The shape of a pw.x input description generated from Quantum ESPRESSO's own
 * INPUT_PW.def (scripts/qe-defs/generate.ts writes one per QE version into ./defs).
 * Validation, completion, hover and the TextMate grammar all read this one description.
 */

export type QeVersion = '6.7' | '7.2' | 'develop';
export const QE_VERSIONS: readonly QeVersion[] = ['6.7', '7.2', 'develop'];

export type FortranType = 'CHARACTER' | 'REAL' | 'INTEGER' | 'LOGICAL';

/** One `opt` of a variable or card flag: the values it accepts (aliases share the description). */
export interface QeOption {
  /** Values as written in the definition, without the Fortran quotes (e.g. ["gaussian", "gauss"]). */
  values: string[];
  description: string;
}

/** An index range of a dimensioned variable, e.g. celldm(i), i = 1..6; bounds may name variables (ntyp). */
export interface QeDimension {
  index: string;
  start: string;
  end: string;
}

export interface QeVariable {
  /** Name as QE spells it (case kept: A, cosAB, Hubbard_U). Fortran matching is case-insensitive. */
  name: string;
  type: FortranType;
  /** Empty for a scalar; one entry per index for dimensioned variables (celldm(i), Hubbard_occ(ityp,i)). */
  dimensions: QeDimension[];
  /** The default as the definition states it (plain text; may be prose such as "4 * ecutwfc"). */
  default?: string;
  /** `status { REQUIRED }` in the definition. */
  required: boolean;
  /** Any other status text (e.g. "OBSOLESCENT, same as vdw_corr='DFT-D'"). */
  status?: string;
  /** Allowed values, when the definition lists them. */
  options: QeOption[];
  /**
   * True when `options` is the complete list of accepted values (every option is a plain
   * literal of the variable's type), so a value outside it is an error.
   */
  optionsClosed: boolean;
  /** Plain-text description (the variable's info and its options' introductory text). */
  description: string;
  /** Names the definition refers to under "see". */
  see: string[];
  /** Label of the definition group the variable belongs to (e.g. "keywords used only in BFGS calculations"). */
  group?: string;
  /*
   * What QE's source says beyond the .def (scripts/qe-defs/namelists.ts reads it). Absent
   * fields mean the usual case: documented, listed in the NAMELIST statement, used by pw.x.
   */
  /** false: pw.x's NAMELIST statement accepts the name but INPUT_PW.def does not describe it. */
  documented?: false;
  /** false: documented, but pw.x's NAMELIST statement does not list it, so pw.x stops ("bad line in namelist"). */
  inNamelist?: false;
  /** false (undocumented names only): no code of pw.x uses it; pw.x reads it and ignores it (a cp.x variable). */
  usedByPw?: false;
  /** true: the namelist still lists it, but pw.x stops when it is set ("The input parameter X is obsolete"). */
  obsolete?: true;
  /** Values pw.x's source accepts that the definition does not list (other spellings: 'tetrahedra-opt'). */
  alsoAccepted?: string[];
  /** Values (documented or not) whose branch in pw.x's source stops the run, with pw.x's message. */
  refused?: Record<string, string>;
  /** Checks pw.x makes on the value as it reads the namelist (the *_checkin routines): it stops when any condition holds. */
  checks?: QeValueCheck[];
  /** 'warns': for a value outside the accepted ones pw.x prints a warning and runs without it (vdw_corr). */
  unknownValue?: 'warns';
}

/** One check of read_namelists.f90: pw.x stops with `message` when the value (element `index`, if given) meets any condition. */
export interface QeValueCheck {
  index?: number;
  stopsWhen: { op: '<' | '<=' | '>' | '>=' | '==' | '/='; value: number }[];
  message: string;
}

export interface QeNamelist {
  /** Upper case, as in the definition: CONTROL, SYSTEM, ... */
  name: string;
  /** The input structure lists it without brackets, i.e. pw.x always reads it. */
  required: boolean;
  description: string;
  variables: QeVariable[];
}

/** One layout of a card's body, for the option(s) it applies to. */
export interface QeCardSyntax {
  /** Card options this layout applies to; empty = every option. */
  forOptions: string[];
  /** Lines before the table, each a list of item names (e.g. [["nks"]]). */
  lines: string[][];
  /** Column names of each table row (e.g. ["X", "Mass_X", "PseudoPot_X"]). */
  columns: string[];
  /** Number of table rows as the definition states it (e.g. "ntyp", "nat", "nks"). */
  rows?: string;
}

export interface QeCard {
  /** Upper case: ATOMIC_SPECIES, K_POINTS, ... */
  name: string;
  required: boolean;
  description: string;
  /** Options in the card header (the flag's enum), e.g. alat | bohr | angstrom | crystal. */
  options: QeOption[];
  /** The flag may be left out (flag -use optional). */
  optionOptional: boolean;
  /** What the definition says the option defaults to (may be prose). */
  defaultOption?: string;
  optionsDescription: string;
  syntax: QeCardSyntax[];
}

export interface QeDefinitions {
  program: 'pw.x';
  qeVersion: QeVersion;
  /** The .def file this was generated from and its licence. */
  source: { file: string; sha256: string; licence: string };
  /** The QE source the accepted names and values were read from (scripts/qe-defs/namelists.ts). */
  namelistSource?: { ref: string; commit: string };
  namelists: QeNamelist[];
  cards: QeCard[];
}
