/**
 * The artifacts of a batch of tool calls (one output of their cell): the first cards, and
 * any card with a concern or a status other than final wherever it is, drawn at once; the
 * rest on request. A sweep of hundreds of calls is one cell, and drawing every card of it when
 * it scrolls into view would make the notebook slow to open and to scroll.
 */
import type { ArtifactListData } from '../../src/shared/canvasOutputs';
import type { Messaging } from './approvalCard';
import { renderArtifactCard } from './artifactCard';
import { h } from './dom';

export const FIRST_CARDS = 12;
const MORE_CARDS = 100;

export function renderArtifactList(data: ArtifactListData, element: HTMLElement, messaging: Messaging): void {
  const cards = data.cards ?? [];
  const flagged = (i: number) => (cards[i]!.concerns ?? []).length > 0 || (cards[i]!.status ?? 'final') !== 'final';
  const shown = new Map<number, HTMLElement>();
  const list = h('div', { class: 'dreams-artifact-list' });
  const more = h('button', { type: 'button', class: 'dreams-more' });
  const draw = (i: number) => {
    const slot = h('div', { class: 'dreams-card-slot', 'data-index': String(i) });
    renderArtifactCard(cards[i]!, slot, messaging);
    shown.set(i, slot);
  };
  const refresh = () => {
    list.replaceChildren(...[...shown.keys()].sort((a, b) => a - b).map((i) => shown.get(i)!));
    const hidden = cards.length - shown.size;
    more.hidden = hidden === 0;
    more.textContent = `Show ${Math.min(hidden, MORE_CARDS)} more (${hidden} artifact${hidden === 1 ? '' : 's'} not shown)`;
  };
  cards.forEach((_, i) => {
    if (i < FIRST_CARDS || flagged(i)) draw(i);
  });
  more.addEventListener('click', () => {
    let added = 0;
    for (let i = 0; i < cards.length && added < MORE_CARDS; i++) {
      if (shown.has(i)) continue;
      draw(i);
      added++;
    }
    refresh();
  });
  refresh();
  element.replaceChildren(list, more);
}
