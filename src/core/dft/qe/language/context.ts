/** Where a position is in a pw.x input: which namelist or card, and what is being typed there. */
import type { Card, Namelist, Position, PwInput } from '../input/model';
import { positionLess } from '../input/model';

export type PositionContext =
  | { kind: 'namelist-header'; prefix: string }
  | { kind: 'variable-name'; namelist: Namelist; prefix: string }
  | { kind: 'variable-value'; namelist: Namelist; variable: string; prefix: string; quoted: boolean }
  | { kind: 'card-header'; prefix: string }
  | { kind: 'card-option'; card: string; prefix: string }
  | { kind: 'card-body'; card: Card }
  | { kind: 'none' };

/** The namelist whose header precedes the position and which is not closed before it. */
export function namelistAt(input: PwInput, p: Position): Namelist | undefined {
  return input.namelists.find((n) => !positionLess(p, n.headerRange.end) && (!n.endRange || !positionLess(n.endRange.start, p)));
}

export function cardAt(input: PwInput, p: Position): Card | undefined {
  let found: Card | undefined;
  for (const c of input.cards) if (!positionLess(p, c.nameRange.start)) found = c;
  if (!found) return undefined;
  const next = input.namelists.find(
    (n) => positionLess(found!.nameRange.start, n.headerRange.start) && positionLess(n.headerRange.start, p),
  );
  return next ? undefined : found;
}

export function contextAt(input: PwInput, lineText: string, p: Position): PositionContext {
  const before = lineText.slice(0, p.character);
  const header = /^\s*&(\w*)$/.exec(before);
  if (header) return { kind: 'namelist-header', prefix: header[1]! };
  const nl = namelistAt(input, p);
  if (nl) {
    if (before.includes('!')) {
      const quotes = (before.slice(0, before.indexOf('!')).match(/['"]/g) ?? []).length;
      if (quotes % 2 === 0) return { kind: 'none' };
    }
    const value = /([A-Za-z_]\w*)\s*(?:\([\d\s,]*\))?\s*=\s*(['"]?)([^'",\s]*)$/.exec(before);
    if (value) return { kind: 'variable-value', namelist: nl, variable: value[1]!, prefix: value[3]!, quoted: value[2] !== '' };
    const name = /(?:^|[\s,])([A-Za-z_]\w*)?$/.exec(before);
    if (name) return { kind: 'variable-name', namelist: nl, prefix: name[1] ?? '' };
    return { kind: 'none' };
  }
  const option = /^\s*([A-Za-z_]+)\s*[({]?\s*([\w.-]*)$/.exec(before);
  if (option && /\s|[({]/.test(before.slice(before.indexOf(option[1]!) + option[1]!.length))) {
    return { kind: 'card-option', card: option[1]!.toUpperCase(), prefix: option[2]! };
  }
  const cardName = /^\s*([A-Za-z_]*)$/.exec(before);
  if (cardName) return { kind: 'card-header', prefix: cardName[1]! };
  const card = cardAt(input, p);
  return card ? { kind: 'card-body', card } : { kind: 'none' };
}
