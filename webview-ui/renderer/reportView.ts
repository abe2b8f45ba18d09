/**
 * The report in full: its Markdown rendered (markdown-it, raw HTML off, so the report's text
 * cannot inject markup past the renderer's CSP), the report judge's verdict, and every number
 * the report claims linked to the artifact it cites (a click opens the provenance graph there).
 */
import MarkdownIt from 'markdown-it';
import type { ReportData } from '../../src/shared/canvasOutputs';
import type { Messaging } from './approvalCard';
import { formatNumber, h } from './dom';

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

type Claim = NonNullable<ReportData['claims']>[number];

/**
 * The claim a number written in the text stands for: the same value as written (to the digits
 * the text shows), with at least three significant digits so that "4" or "12" is not taken for
 * 4.04 Å or a 12×12×12 mesh.
 */
export function claimOfNumber(written: string, claims: readonly Claim[]): Claim | undefined {
  const x = Number(written.replace(/[−–]/, '-'));
  if (!Number.isFinite(x)) return undefined;
  const digits = written.replace(/^[-−–+]?0*\.?0*/, '').replace(/[^0-9]/g, '').length;
  const decimals = written.includes('.') ? written.split('.')[1]!.replace(/[^0-9]/g, '').length : 0;
  const half = 0.5 * 10 ** -decimals;
  let best: Claim | undefined;
  for (const c of claims) {
    const exact = x === c.value;
    if (!exact && (digits < 3 || Math.abs(x - c.value) > half * (1 + 1e-9))) continue;
    if (!best || Math.abs(x - c.value) < Math.abs(x - best.value)) best = c;
  }
  return best;
}

/** Wrap the claimed numbers of the rendered text (not of code) in links to their artifacts. */
function linkClaims(root: HTMLElement, claims: readonly Claim[], messaging: Messaging): void {
  if (!claims.length) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.parentElement?.closest('code, pre, a')) texts.push(n as Text);
  }
  const number = /[-−]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g;
  for (const t of texts) {
    const text = t.data;
    const parts: (string | HTMLElement)[] = [];
    let last = 0;
    for (const m of text.matchAll(number)) {
      const claim = claimOfNumber(m[0], claims);
      if (!claim) continue;
      parts.push(text.slice(last, m.index));
      const link = h(
        'a',
        {
          href: '#',
          class: 'claim',
          'data-artifact': claim.artifact,
          title: `${claim.quantity}: artifact ${claim.artifact} (show its provenance)`,
        },
        m[0],
      );
      link.addEventListener('click', (ev) => {
        ev.preventDefault();
        messaging.post?.({ type: 'show-provenance', id: claim.artifact });
      });
      parts.push(link);
      last = m.index + m[0].length;
    }
    if (!parts.length) continue;
    parts.push(text.slice(last));
    t.replaceWith(...parts);
  }
}

export function renderReport(r: ReportData, element: HTMLElement, messaging: Messaging = {}): void {
  const card = h(
    'section',
    { class: 'dreams-card report', ...(r.artifact ? { 'data-artifact': r.artifact } : {}) },
    h(
      'h3',
      {},
      'Report ',
      r.verdict
        ? h('span', { class: `badge lv-${r.verdict.level}` }, r.verdict.level === 'pass' ? 'accepted by the report judge' : r.verdict.level)
        : h('span', { class: 'muted' }, 'not yet judged'),
      r.artifact ? h('span', { class: 'muted' }, ` ${r.artifact}`) : undefined,
    ),
  );
  if (r.verdict?.reasons.length) card.append(h('ul', { class: 'reasons' }, ...r.verdict.reasons.map((x) => h('li', {}, x))));
  const body = h('div', { class: 'markdown' });
  body.innerHTML = md.render(r.markdown);
  const claims = r.claims ?? [];
  linkClaims(body, claims, messaging);
  card.append(body);
  if (claims.length) {
    // every claimed number with its artifact, whether or not the text writes it as claimed
    const list = h('table', { class: 'claims' }, h('tr', {}, h('th', {}, 'Claimed'), h('th', {}, 'value'), h('th', {}, 'artifact')));
    for (const c of claims) {
      const link = h('a', { href: '#', class: 'claim', 'data-artifact': c.artifact, title: 'show its provenance' }, c.artifact);
      link.addEventListener('click', (ev) => {
        ev.preventDefault();
        messaging.post?.({ type: 'show-provenance', id: c.artifact });
      });
      list.append(
        h(
          'tr',
          {},
          h('td', {}, c.quantity.replace(/_/g, ' ')),
          h('td', {}, `${formatNumber(c.value)}${c.unit ? ` ${c.unit}` : ''}`),
          h('td', {}, link),
        ),
      );
    }
    card.append(list);
  }
  element.replaceChildren(card);
}
