/**
 * The approval card: what the guard flagged (tool, parameter, value), why (each verdict's
 * reasons and the agent's own reason), where the value came from (the provenance path),
 * and Approve / Reject with an optional comment. The answer travels to the host through
 * renderer messaging; the host records it and replies, and the card shows the outcome —
 * including a refusal when the request was already answered elsewhere.
 */
import type { ApprovalAnswerData, ApprovalCardData, RendererToHostMessage } from '../../src/shared/canvasOutputs';
import { formatValue, h } from './dom';

export interface Messaging {
  post?: (m: RendererToHostMessage) => void;
}

function answerText(a: ApprovalAnswerData): string {
  const when = new Date(a.at);
  const at = Number.isNaN(when.getTime()) ? a.at : when.toLocaleString();
  const scope = a.under
    ? ` (standing approval of ${a.under})`
    : a.standing
      ? ', and with it every later request of this concern in the run'
      : '';
  const comment = a.comment && !a.under ? ` — “${a.comment}”` : '';
  return `${a.decision === 'approve' ? 'Approved' : 'Rejected'} by ${a.by} at ${at}${scope}${comment}`;
}

export function provenanceLinks(ids: string[], messaging: Messaging): HTMLElement {
  const path = h('span', { class: 'path' });
  ids.forEach((id, i) => {
    if (i) path.append(h('span', { class: 'muted' }, '←'));
    const a = h('a', { class: 'ref', role: 'link', tabindex: '0', title: `Show ${id} in the provenance graph`, 'data-ref': id }, id);
    const go = () => messaging.post?.({ type: 'show-provenance', id });
    a.addEventListener('click', go);
    a.addEventListener('keydown', (e) => (e.key === 'Enter' ? go() : undefined));
    path.append(a);
  });
  return path;
}

export function renderApprovalCard(
  data: ApprovalCardData,
  element: HTMLElement,
  messaging: Messaging,
): { onResult(ok: boolean, message: string, answer?: ApprovalAnswerData): void } {
  const r = data.request;
  const card = h('section', { class: 'dreams-card approval', 'data-approval': r.id, 'aria-label': `Approval request ${r.id}` });
  const worst = r.verdicts.some((v) => v.level === 'fail') ? 'fail' : r.verdicts.some((v) => v.level === 'warn') ? 'warn' : 'pass';
  const heading = h('span', { class: 'heading' }, 'Approval needed');
  card.append(
    h(
      'h3',
      {},
      heading,
      ' ',
      h('span', { class: `badge lv-${worst}` }, worst === 'warn' ? 'warning' : worst),
      ' ',
      h('span', { class: 'muted' }, r.id),
    ),
  );
  const dl = h('dl');
  const row = (k: string, v: Node | string) => dl.append(h('dt', {}, k), h('dd', {}, v));
  row('tool', h('code', {}, r.tool));
  row('call', provenanceLinks([r.call], messaging));
  if (r.parameter) row('parameter', h('code', {}, r.parameter));
  if (r.value !== undefined) row('value', h('code', { class: 'approval-value' }, formatValue(r.value)));
  if (data.agentReason) row('agent’s reason', data.agentReason);
  if (data.context) row('context', data.context);
  card.append(dl);
  card.append(h('div', { class: 'muted' }, 'The judge’s reasoning'));
  const reasons = h('ul', { class: 'reasons' });
  for (const v of r.verdicts) {
    for (const reason of v.reasons.length ? v.reasons : ['(no reason given)']) {
      reasons.append(h('li', {}, h('span', { class: `badge lv-${v.level}` }, v.level), ' ', h('code', {}, v.rule), ': ', reason));
    }
  }
  card.append(reasons);
  if (r.provenancePath.length)
    card.append(h('div', { class: 'row' }, h('span', { class: 'muted' }, 'Provenance'), provenanceLinks(r.provenancePath, messaging)));

  const outcome = h('div', { class: 'outcome', role: 'status', 'aria-live': 'polite' });
  const showAnswered = (a: ApprovalAnswerData) => {
    card.classList.add(`answered-${a.decision}`);
    heading.textContent = a.decision === 'approve' ? 'Approved' : 'Rejected';
    outcome.textContent = answerText(a);
    outcome.classList.remove('refused');
  };
  const onResult = (ok: boolean, message: string, answer?: ApprovalAnswerData) => {
    if (ok && answer) {
      actions.remove();
      showAnswered(answer);
      return;
    }
    outcome.textContent = message;
    outcome.classList.add('refused');
    setBusy(false);
    // A stale answer leaves nothing to decide here.
    if (/already answered/.test(message)) actions.remove();
  };

  const comment = h('textarea', { rows: '2', placeholder: 'Comment (recorded with your answer)', 'aria-label': 'Comment', hidden: '' });
  const approve = h('button', { type: 'button', class: 'approve' }, 'Approve');
  const approveAll = h(
    'button',
    {
      type: 'button',
      class: 'approve-all secondary',
      title: `Approve this and every open or later request of this run with the same concern: ${r.parameter ?? 'the call'}${r.value !== undefined ? ` = ${formatValue(r.value)}` : ''}, warned by ${[...new Set(r.verdicts.filter((v) => v.level === 'warn').map((v) => v.rule))].join(', ') || 'the same rules'}`,
    },
    'Approve all like this',
  );
  const reject = h('button', { type: 'button', class: 'reject secondary' }, 'Reject');
  const commentToggle = h('button', { type: 'button', class: 'comment secondary', 'aria-expanded': 'false' }, 'Comment');
  // A standing approval needs a warning to stand on; a failed verdict is answered one by one.
  const canStand = r.verdicts.some((v) => v.level === 'warn') && !r.verdicts.some((v) => v.level === 'fail');
  const actions = h(
    'div',
    { class: 'actions-block' },
    comment,
    h('div', { class: 'actions' }, approve, ...(canStand ? [approveAll] : []), reject, commentToggle),
  );
  const setBusy = (busy: boolean) => {
    for (const b of [approve, approveAll, reject, commentToggle]) b.disabled = busy;
  };
  commentToggle.addEventListener('click', () => {
    comment.hidden = !comment.hidden;
    commentToggle.setAttribute('aria-expanded', String(!comment.hidden));
    if (!comment.hidden) comment.focus();
  });
  const send = (decision: 'approve' | 'reject', standing = false) => {
    if (!messaging.post) {
      onResult(false, 'This notebook is not connected to DREAMS: open it in VS Code with the DREAMS extension to answer.');
      return;
    }
    setBusy(true);
    outcome.textContent = decision === 'approve' ? 'Approving…' : 'Rejecting…';
    outcome.classList.remove('refused');
    const text = comment.value.trim();
    messaging.post({
      type: 'approval-answer',
      requestId: r.id,
      decision,
      ...(text ? { comment: text } : {}),
      ...(standing ? { standing } : {}),
    });
  };
  approve.addEventListener('click', () => send('approve'));
  approveAll.addEventListener('click', () => send('approve', true));
  reject.addEventListener('click', () => send('reject'));

  if (data.answer) showAnswered(data.answer);
  else if (data.closed) {
    // superseded by a rerun: shown, with why, but there is nothing to answer
    card.classList.add('closed');
    heading.textContent = 'Closed';
    outcome.textContent = `Closed without an answer: ${data.closed.reason}`;
  } else card.append(actions);
  card.append(outcome);
  element.replaceChildren(card);
  return { onResult };
}
