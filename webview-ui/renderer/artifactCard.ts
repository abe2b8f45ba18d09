/** An artifact cell: its value with its unit (or a table), status, concerns and provenance. */
import type { ArtifactCardData, JobCardData, PlanData } from '../../src/shared/canvasOutputs';
import { provenanceLinks, type Messaging } from './approvalCard';
import { formatNumber, formatValue, h } from './dom';

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
      h('div', {}, h('span', { class: 'value' }, formatNumber(a.value)), a.unit ? h('span', { class: 'unit' }, a.unit) : undefined),
    );
  } else if (table) {
    const t = h('table');
    t.append(h('tr', {}, ...table.columns.map((c) => h('th', {}, c))));
    for (const r of table.rows.slice(0, 200)) t.append(h('tr', {}, ...r.map((x) => h('td', {}, formatValue(x)))));
    card.append(t);
    if (table.rows.length > 200) card.append(h('div', { class: 'muted' }, `first 200 of ${table.rows.length} rows`));
  } else if (a.value && typeof a.value === 'object' && !Array.isArray(a.value)) {
    // A record (a fit, a selection): its scalar fields, and the size of what it lists.
    const dl = h('dl');
    for (const [k, v] of Object.entries(a.value as Record<string, unknown>)) {
      const shown = Array.isArray(v) ? `${v.length} entries` : v && typeof v === 'object' ? formatValue(v) : formatValue(v);
      dl.append(h('dt', {}, k), h('dd', {}, h('code', {}, shown.length > 200 ? shown.slice(0, 199) + '…' : shown)));
    }
    card.append(dl);
  } else if (a.value !== undefined) {
    const text = formatValue(a.value);
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
