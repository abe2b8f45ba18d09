/** An artifact cell: its value with its unit (or a table), status, concerns and provenance. */
import type { ArtifactCardData, JobCardData, PlanData } from '../../src/shared/canvasOutputs';
import { provenanceLinks, type Messaging } from './approvalCard';
import { h } from './dom';
import { cardFields, fieldName, fieldsLine, formatField, formatQuantity, type CardField } from './quantities';

/** The scalar artifact of a run's total energy (ARTIFACT.totalEnergy in the core): written to 10 µeV. */
const TOTAL_ENERGY = 'total_energy';

/** Rows of named columns: an array of flat objects with the same keys. */
function asTable(v: unknown): { columns: string[]; rows: unknown[][] } | undefined {
  const rows = Array.isArray(v)
    ? v
    : v && typeof v === 'object' && Array.isArray((v as { rows?: unknown }).rows)
      ? (v as { rows: unknown[] }).rows
      : undefined;
  if (!rows || !rows.length || !rows.every((r) => r && typeof r === 'object' && !Array.isArray(r))) return undefined;
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r as object)))];
  if (columns.length > 12) return undefined;
  return { columns, rows: rows.map((r) => columns.map((c) => (r as Record<string, unknown>)[c])) };
}

/** A table cell: a number at its column's precision (the unit is in the header), a record as one line. */
function cellText(v: unknown, unit?: string, totalEnergy = false): string {
  if (typeof v === 'number') return formatQuantity(v, unit, totalEnergy);
  if (v && typeof v === 'object' && !Array.isArray(v)) return fieldsLine(cardFields(v as Record<string, unknown>, 1));
  return formatField(v);
}

/** A record's fields as a definition list; a record inside it as a list of its own, indented. */
function fieldList(fields: CardField[]): HTMLDListElement {
  const dl = h('dl');
  for (const f of fields) {
    const text = 'text' in f ? (f.text.length > 200 ? f.text.slice(0, 199) + '…' : f.text) : undefined;
    dl.append(
      h('dt', {}, f.label),
      h('dd', {}, text !== undefined ? h('code', {}, text) : fieldList((f as { fields: CardField[] }).fields)),
    );
  }
  return dl;
}

export function renderArtifactCard(raw: ArtifactCardData, element: HTMLElement, messaging: Messaging): void {
  // Canvases saved by earlier versions, or written by hand, may leave out the lists.
  const a: ArtifactCardData = {
    ...raw,
    concerns: raw.concerns ?? [],
    inputs: raw.inputs ?? [],
    status: raw.status ?? 'final',
    name: raw.name ?? raw.id,
  };
  const card = h('section', { class: 'dreams-card artifact', 'data-artifact': a.id, 'aria-label': `Artifact ${a.id}` });
  card.append(
    h(
      'h3',
      {},
      a.name,
      ' ',
      h('span', { class: 'muted' }, `${a.kind} · ${a.id}`),
      ' ',
      a.status !== 'final' ? h('span', { class: `badge lv-${a.status}` }, a.status) : undefined,
    ),
  );
  const table = asTable(a.value);
  if (typeof a.value === 'number') {
    card.append(
      h(
        'div',
        {},
        h('span', { class: 'value' }, formatQuantity(a.value, a.unit, a.name === TOTAL_ENERGY)),
        a.unit ? h('span', { class: 'unit' }, a.unit) : undefined,
      ),
    );
  } else if (table) {
    const names = table.columns.map((c) => fieldName(c));
    const t = h('table');
    t.append(h('tr', {}, ...names.map((c) => h('th', {}, c.unit ? `${c.label} (${c.unit})` : c.label))));
    for (const r of table.rows.slice(0, 200))
      t.append(h('tr', {}, ...r.map((x, i) => h('td', {}, cellText(x, names[i]!.unit, names[i]!.totalEnergy)))));
    card.append(t);
    if (table.rows.length > 200) card.append(h('div', { class: 'muted' }, `first 200 of ${table.rows.length} rows`));
  } else if (a.value && typeof a.value === 'object' && !Array.isArray(a.value)) {
    // A record (a fit, a selection, a gap): its fields named with their units, the records inside it as lists of their own.
    card.append(fieldList(cardFields(a.value as Record<string, unknown>)));
  } else if (a.value !== undefined) {
    const text = formatField(a.value);
    card.append(
      h(
        'div',
        {},
        h('code', {}, text.length > 400 ? text.slice(0, 399) + '…' : text),
        a.unit ? h('span', { class: 'unit' }, a.unit) : undefined,
      ),
    );
  }
  if (a.location) card.append(h('div', { class: 'muted' }, 'file: ', h('code', {}, a.location)));
  for (const c of a.concerns) {
    card.append(
      h('div', {}, h('span', { class: `badge lv-${c.level}` }, c.level), ' ', c.message, h('span', { class: 'muted' }, ` (${c.source})`)),
    );
  }
  const prov = h('div', { class: 'row' });
  if (a.creator) prov.append(h('span', { class: 'muted' }, 'made by'), provenanceLinks([a.creator], messaging));
  if (a.tool) prov.append(h('code', {}, a.tool));
  if (a.inputs.length) prov.append(h('span', { class: 'muted' }, 'from'), provenanceLinks(a.inputs, messaging));
  const graphLink = h(
    'a',
    { class: 'ref', role: 'link', tabindex: '0', title: 'Open the provenance graph upstream of this artifact' },
    'provenance ↗',
  );
  graphLink.addEventListener('click', () => messaging.post?.({ type: 'show-provenance', id: a.id }));
  prov.append(graphLink);
  card.append(prov);
  element.replaceChildren(card);
}

export function renderPlan(p: PlanData, element: HTMLElement): void {
  const card = h('section', { class: 'dreams-card plan' }, h('h3', {}, 'Plan ', h('span', { class: 'muted' }, `version ${p.version}`)));
  const ol = h('ol', { class: 'steps' });
  const mark: Record<string, string> = { done: '✓', running: '▶', failed: '✗', skipped: '–', pending: '○' };
  for (const s of p.steps) {
    ol.append(
      h(
        'li',
        { 'data-status': s.status },
        `${mark[s.status] ?? '○'} `,
        h('strong', {}, s.title),
        h('span', { class: 'muted' }, ` (${s.id}, ${s.status})`),
        s.summary ? h('div', { class: 'muted' }, s.summary) : undefined,
      ),
    );
  }
  card.append(ol);
  element.replaceChildren(card);
}

export function renderJob(j: JobCardData, element: HTMLElement): void {
  const state = j.state === 'failed' ? 'fail' : j.state === 'completed' ? 'pass' : 'warn';
  const card = h(
    'section',
    { class: 'dreams-card job' },
    h(
      'h3',
      {},
      `Job ${j.id} `,
      h('span', { class: `badge lv-${state}` }, j.state),
      h('span', { class: 'muted' }, ` ${j.backend}${j.schedulerId ? ` #${j.schedulerId}` : ''}`),
    ),
  );
  if (j.progress) card.append(h('div', {}, j.progress));
  if (j.elapsedSeconds !== undefined) card.append(h('div', { class: 'muted' }, `elapsed ${Math.round(j.elapsedSeconds)} s`));
  if (j.error) card.append(h('pre', { class: 'lv-fail' }, j.error));
  element.replaceChildren(card);
}
