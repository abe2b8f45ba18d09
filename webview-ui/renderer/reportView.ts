/**
 * The report in full: its Markdown rendered (markdown-it, raw HTML off, so the report's text
 * cannot inject markup past the renderer's CSP), its plots drawn inline from the SVG text the
 * output carries, the report judge's verdict, and every number the report claims, and every
 * artifact id it names, linked to that artifact (a click opens the provenance graph there).
 */
import MarkdownIt from 'markdown-it';
import type { ReportData } from '../../src/shared/canvasOutputs';
import type { Messaging } from './approvalCard';
import { formatNumber, h } from './dom';

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** The SVG texts of the report being rendered, by the path its Markdown names (`plots/eos.svg`). */
let images: Record<string, string> = {};

/**
 * An image of the report: a plot the output carries, as a data: URI (an SVG in an image runs no
 * script and fetches nothing, and the notebook's CSP allows data: images); any other image the
 * Markdown names (a relative file of the run, a remote address) is not fetched: its alt text is shown.
 */
md.renderer.rules.image = (tokens, idx) => {
  const token = tokens[idx]!;
  const src = token.attrGet('src') ?? '';
  const alt = token.content || src;
  const svg = Object.hasOwn(images, src) ? images[src] : undefined;
  if (svg === undefined) return `<span class="missing-image">[${md.utils.escapeHtml(alt)}: not shown]</span>`;
  const uri = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  return `<img class="report-plot" src="${md.utils.escapeHtml(uri)}" alt="${md.utils.escapeHtml(alt)}" data-plot="${md.utils.escapeHtml(src)}">`;
};

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

/** A link that opens the provenance graph at an artifact. */
function artifactLink(text: string, artifact: string, title: string, messaging: Messaging): HTMLElement {
  const link = h('a', { href: '#', class: 'claim', 'data-artifact': artifact, title }, text);
  link.addEventListener('click', (ev) => {
    ev.preventDefault();
    messaging.post?.({ type: 'show-provenance', id: artifact });
  });
  return link;
}

/**
 * Wrap the claimed numbers of the rendered text (not of code) in links to their artifacts; with
 * `ids`, also each artifact id the text names (`a-48`: the composed report cites its artifacts so).
 */
function linkClaims(root: HTMLElement, claims: readonly Claim[], messaging: Messaging, ids = false): void {
  if (!claims.length && !ids) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.parentElement?.closest('code, pre, a')) texts.push(n as Text);
  }
  // an artifact id first (so "a-48" is not read as the number -48), else a number
  const token = ids ? /\ba-\d+\b|[-−]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g : /[-−]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g;
  for (const t of texts) {
    const text = t.data;
    const parts: (string | HTMLElement)[] = [];
    let last = 0;
    for (const m of text.matchAll(token)) {
      let link: HTMLElement;
      if (m[0].startsWith('a-')) link = artifactLink(m[0], m[0], `artifact ${m[0]} (show its provenance)`, messaging);
      else {
        const claim = claimOfNumber(m[0], claims);
        if (!claim) continue;
        link = artifactLink(m[0], claim.artifact, `${claim.quantity}: artifact ${claim.artifact} (show its provenance)`, messaging);
      }
      parts.push(text.slice(last, m.index));
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
  // (the composed report states the judge's summary itself)
  if (r.verdict?.reasons.length && !r.composed) card.append(h('ul', { class: 'reasons' }, ...r.verdict.reasons.map((x) => h('li', {}, x))));
  const body = h('div', { class: 'markdown' });
  images = r.images ?? {};
  try {
    body.innerHTML = md.render(r.markdown);
  } finally {
    images = {};
  }
  const claims = r.claims ?? [];
  linkClaims(body, claims, messaging, r.composed === true);
  card.append(body);
  if (claims.length) {
    // every claimed number with its artifact, whether or not the text writes it as claimed
    const list = h('table', { class: 'claims' }, h('tr', {}, h('th', {}, 'Claimed'), h('th', {}, 'value'), h('th', {}, 'artifact')));
    for (const c of claims) {
      const link = artifactLink(c.artifact, c.artifact, 'show its provenance', messaging);
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
