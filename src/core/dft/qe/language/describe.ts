/** Markdown descriptions of namelists, variables, values and cards, from the generated definitions. */
import type { QeCard, QeNamelist, QeOption, QeVariable } from '../definitions';

const quote = (v: QeVariable, x: string) => (v.type === 'CHARACTER' ? `'${x}'` : x);

export function variableSignature(v: QeVariable): string {
  const dims = v.dimensions.length ? `(${v.dimensions.map((d) => d.index).join(',')})` : '';
  return `${v.name}${dims}: ${v.type}`;
}

export function describeVariable(v: QeVariable, namelist: string, version: string): string {
  const lines = [
    `**${v.name}**${v.dimensions.length ? `(${v.dimensions.map((d) => d.index).join(',')})` : ''} — ${v.type} in &${namelist}` +
      `${v.required ? ' — **required**' : ''} (pw.x ${version})`,
  ];
  if (v.documented === false)
    lines.push(
      v.usedByPw === false ? 'Not documented for pw.x; pw.x reads it and ignores it.' : 'Not documented in INPUT_PW; pw.x reads it.',
    );
  if (v.inNamelist === false) lines.push('Documented, but pw.x\'s namelist does not list it: pw.x stops with "bad line in namelist".');
  if (v.dimensions.length) lines.push(`Indices: ${v.dimensions.map((d) => `${d.index} = ${d.start}..${d.end}`).join(', ')}`);
  if (v.default !== undefined) lines.push(`Default: \`${v.default.replace(/\s+/g, ' ')}\``);
  if (v.status) lines.push(`Status: ${v.status.replace(/\s+/g, ' ')}`);
  if (v.options.length) {
    lines.push(`${v.optionsClosed ? 'Allowed values' : 'Values'}:`);
    for (const o of v.options)
      lines.push(`- ${o.values.map((x) => `\`${quote(v, x)}\``).join(', ')}${o.description ? `: ${oneParagraph(o.description)}` : ''}`);
  }
  if (v.description) lines.push('', v.description);
  if (v.see.length) lines.push('', `See: ${v.see.join(', ')}`);
  return lines.join('\n');
}

export function describeOption(v: QeVariable, o: QeOption): string {
  return `${o.values.map((x) => `\`${quote(v, x)}\``).join(', ')} — ${v.name}\n\n${o.description}`;
}

export function describeNamelist(n: QeNamelist, version: string): string {
  return [
    `**&${n.name}** — ${n.required ? 'always read by' : 'optional for'} pw.x ${version}; ${n.variables.filter((v) => v.documented !== false).length} variables`,
    n.description ? `\n${n.description}` : '',
  ].join('\n');
}

export function describeCard(c: QeCard, version: string): string {
  const lines = [`**${c.name}** — ${c.required ? 'required' : 'optional'} card (pw.x ${version})`];
  if (c.options.length)
    lines.push(`Options: ${c.options.map((o) => `\`${o.values[0]}\``).join(' | ')}${c.optionOptional ? '' : ' (one is required)'}`);
  for (const s of c.syntax) {
    const layout = [
      ...s.lines.map((l) => l.join(' ')),
      s.columns.length ? `${s.columns.join(' ')}${s.rows ? `   (× ${s.rows})` : ''}` : '',
    ].filter(Boolean);
    if (layout.length)
      lines.push(`${s.forOptions.length ? `For ${s.forOptions.join(', ')}:` : 'Layout:'}\n\`\`\`\n${layout.join('\n')}\n\`\`\``);
  }
  if (c.description) lines.push('', c.description);
  return lines.join('\n');
}

export function oneParagraph(s: string): string {
  return s
    .split(/\n\s*\n/)[0]!
    .replace(/\s+/g, ' ')
    .trim();
}
