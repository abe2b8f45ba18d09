/**
 * Merges what QE's source says (the NAMELIST statements, the values pw.x's code compares,
 * the names it declares obsolete; scripts/qe-defs/namelists.ts) into the description built
 * from INPUT_PW.def. The .def gives types and descriptions; the source decides which names
 * and values pw.x accepts.
 */
import type { QeDefinitions, QeDimension, QeVariable } from '../../src/core/dft/qe/definitionTypes';
import type { NamelistName, PwNamelists } from './namelists';

const INDEX_NAMES = ['i', 'j', 'k', 'l'];

function dimensionsOf(n: NamelistName): QeDimension[] {
  return n.dimensions.map((d, k) => {
    const range = /^(.*):(.*)$/.exec(d);
    return { index: INDEX_NAMES[k] ?? `i${k + 1}`, start: range ? range[1]! : '1', end: range ? range[2]! : d };
  });
}

function undocumented(n: NamelistName): QeVariable {
  const v: QeVariable = {
    name: n.name,
    type: n.type,
    dimensions: dimensionsOf(n),
    required: false,
    options: [],
    optionsClosed: false,
    description: n.usedByPw
      ? "Accepted by pw.x's namelist and used by pw.x, but not described in INPUT_PW.def; see the QE source for its meaning."
      : "Accepted by pw.x's namelist but used by no code of pw.x (a cp.x variable): pw.x reads it and ignores it.",
    see: [],
    documented: false,
  };
  if (!n.usedByPw) v.usedByPw = false;
  return v;
}

/** Literals that can be a value as written (pw.x TRIMs trailing blanks only, so ' bfgs' never matches). */
const usable = (lit: string) => lit !== '' && !/^\s/.test(lit);

export function mergeSourceFacts(defs: QeDefinitions, src: PwNamelists): QeDefinitions {
  const obsolete = new Set(src.obsolete);
  for (const nl of defs.namelists) {
    const listed = src.namelists[nl.name];
    if (!listed) continue;
    const names = new Set(listed.map((n) => n.name.toLowerCase()));
    for (const v of nl.variables) {
      const key = v.name.toLowerCase();
      if (!names.has(key)) v.inNamelist = false;
      if (obsolete.has(key)) v.obsolete = true;
      const values = src.values[key];
      if (v.type === 'CHARACTER' && values) {
        const documented = new Set(v.options.flatMap((o) => o.values));
        const refused = values.refused ?? {};
        const extra = values.literals.filter((l) => usable(l) && !documented.has(l) && !(l in refused));
        if (extra.length && v.optionsClosed) v.alsoAccepted = extra;
        if (Object.keys(refused).length) v.refused = refused;
        if (values.unknown === 'warns') v.unknownValue = 'warns';
      }
    }
    const known = new Set(nl.variables.map((v) => v.name.toLowerCase()));
    for (const n of listed) {
      if (known.has(n.name.toLowerCase())) continue;
      const v = undocumented(n);
      if (obsolete.has(n.name.toLowerCase())) v.obsolete = true;
      nl.variables.push(v);
    }
  }
  for (const r of src.ranges) {
    const v = defs.namelists.find((n) => n.name === r.namelist)?.variables.find((x) => x.name.toLowerCase() === r.name);
    if (!v) continue;
    (v.checks ??= []).push({ ...(r.index !== undefined ? { index: r.index } : {}), stopsWhen: r.stopsWhen, message: r.message });
  }
  defs.namelistSource = { ref: src.source.ref, commit: src.source.commit };
  return defs;
}
