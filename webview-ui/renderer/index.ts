// Notebook renderer for DREAMS canvas outputs. Browser code: no Node modules.
import type { ActivationFunction, OutputItem } from 'vscode-notebook-renderer';
import {
  CANVAS_MIME,
  type ApprovalCardData,
  type ArtifactCardData,
  type ArtifactListData,
  type HostToRendererMessage,
  type JobCardData,
  type PlanData,
  type PlotData,
  type ReportData,
  type RendererToHostMessage,
  type StructureData,
} from '../../src/shared/canvasOutputs';
import { renderApprovalCard, type Messaging } from './approvalCard';
import { renderArtifactCard, renderJob, renderPlan } from './artifactCard';
import { renderReport } from './reportView';
import { renderArtifactList } from './artifactList';
import { h } from './dom';
import { renderPlot } from './plots';
import { ensureStyles } from './styles';
import { onTrajectoryReply, renderStructure } from './structureView';

export const activate: ActivationFunction = (context) => {
  const messaging: Messaging = context.postMessage ? { post: (m: RendererToHostMessage) => context.postMessage!(m) } : {};
  const pending = new Map<string, (ok: boolean, message: string, answer?: ApprovalCardData['answer']) => void>();
  context.onDidReceiveMessage?.((m: HostToRendererMessage) => {
    if (m.type === 'approval-result') pending.get(m.requestId)?.(m.ok, m.message, m.answer);
    else if (m.type === 'structure-trajectory') onTrajectoryReply(m);
  });
  return {
    renderOutputItem(item: OutputItem, element: HTMLElement) {
      ensureStyles(element);
      try {
        switch (item.mime) {
          case CANVAS_MIME.approval: {
            const data = item.json() as ApprovalCardData;
            const card = renderApprovalCard(data, element, messaging);
            pending.set(data.request.id, card.onResult);
            break;
          }
          case CANVAS_MIME.artifact:
            renderArtifactCard(item.json() as ArtifactCardData, element, messaging);
            break;
          case CANVAS_MIME.artifacts:
            renderArtifactList(item.json() as ArtifactListData, element, messaging);
            break;
          case CANVAS_MIME.plot:
            renderPlot(item.json() as PlotData, element, messaging);
            break;
          case CANVAS_MIME.structure:
            renderStructure(item.json() as StructureData, element, messaging);
            break;
          case CANVAS_MIME.plan:
            renderPlan(item.json() as PlanData, element);
            break;
          case CANVAS_MIME.job:
            renderJob(item.json() as JobCardData, element);
            break;
          case CANVAS_MIME.report:
            renderReport(item.json() as ReportData, element, messaging);
            break;
          default:
            element.replaceChildren(h('pre', {}, item.text()));
        }
      } catch (e) {
        element.replaceChildren(
          h(
            'div',
            { class: 'dreams-card' },
            h('strong', {}, `Could not show this ${item.mime} output: `),
            String((e as Error).message),
            h('div', { class: 'muted' }, 'The cell’s data is unchanged; open the .dreams file as text to inspect it.'),
          ),
        );
      }
    },
    disposeOutputItem(id?: string) {
      if (id === undefined) pending.clear();
    },
  };
};
