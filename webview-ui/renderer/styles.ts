/** Renderer styles, from the notebook's theme variables. Added once per output document. */
const CSS = `
.dreams-card { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground);
  border: 1px solid var(--vscode-panel-border, #8884); border-radius: 4px; padding: 10px 12px; margin: 4px 0; max-width: 980px; }
.dreams-card h3 { margin: 0 0 6px; font-size: 1.05em; }
.dreams-card .muted { color: var(--vscode-descriptionForeground); }
.dreams-card .row { display: flex; gap: 12px; flex-wrap: wrap; align-items: baseline; }
.dreams-card dl { display: grid; grid-template-columns: max-content 1fr; gap: 3px 12px; margin: 8px 0; }
.dreams-card dt { color: var(--vscode-descriptionForeground); }
.dreams-card dd { margin: 0; word-break: break-word; }
.dreams-card dd > dl { margin: 0; }
.dreams-card code { font-family: var(--vscode-editor-font-family); }
.dreams-card .value { font-size: 1.6em; font-weight: 600; font-family: var(--vscode-editor-font-family); }
.dreams-card .unit { font-size: 1.1em; margin-left: 4px; color: var(--vscode-descriptionForeground); }
.dreams-card .badge { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 0.85em; border: 1px solid currentColor; }
.dreams-card .lv-pass { color: var(--vscode-charts-green); }
.dreams-card .lv-warn { color: var(--vscode-charts-orange); }
.dreams-card .lv-fail { color: var(--vscode-charts-red); }
.dreams-card .lv-stale, .dreams-card .lv-provisional { color: var(--vscode-charts-yellow); }
.dreams-card.approval { border-left: 4px solid var(--vscode-charts-orange); }
.dreams-card.approval.answered-approve { border-left-color: var(--vscode-charts-green); }
.dreams-card.approval.answered-reject { border-left-color: var(--vscode-charts-red); }
.dreams-card ul.reasons { margin: 4px 0 8px 18px; padding: 0; }
.dreams-card .path { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; }
.dreams-card a.ref { color: var(--vscode-textLink-foreground); cursor: pointer; text-decoration: none; font-family: var(--vscode-editor-font-family); }
.dreams-card a.ref:hover { text-decoration: underline; }
.dreams-card button { font: inherit; padding: 3px 12px; border-radius: 2px; cursor: pointer; border: 1px solid var(--vscode-button-border, transparent);
  color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
.dreams-card button:hover { background: var(--vscode-button-hoverBackground); }
.dreams-card button.secondary { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
.dreams-card button:disabled { opacity: 0.5; cursor: default; }
.dreams-card textarea { width: 100%; max-width: 640px; box-sizing: border-box; font: inherit; color: var(--vscode-input-foreground);
  background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, #8886); padding: 4px; }
.dreams-card .actions { display: flex; gap: 8px; margin-top: 8px; align-items: center; flex-wrap: wrap; }
.dreams-card .outcome { margin-top: 8px; }
.dreams-card .outcome.refused { color: var(--vscode-errorForeground); }
.dreams-card table { border-collapse: collapse; margin: 6px 0; font-family: var(--vscode-editor-font-family); }
.dreams-card.report .markdown { line-height: 1.5; }
.dreams-card.report .markdown table { font-family: inherit; }
.dreams-card.report .markdown th, .dreams-card.report .markdown td { border: 1px solid var(--vscode-editorWidget-border, #8884); padding: 2px 8px; text-align: left; }
.dreams-card.report .markdown pre { white-space: pre-wrap; }
.dreams-card.report .markdown img.report-plot { display: block; max-width: 100%; height: auto; margin: 6px 0; border-radius: 4px; }
.dreams-card.report .markdown .missing-image { opacity: 0.7; font-style: italic; }
.dreams-card a.claim { color: var(--vscode-textLink-foreground); text-decoration: underline dotted; cursor: pointer; }
.dreams-card th, .dreams-card td { border-bottom: 1px solid var(--vscode-panel-border, #8884); padding: 2px 10px; text-align: right; }
.dreams-card th { color: var(--vscode-descriptionForeground); font-weight: normal; }
.dreams-card svg text { font-size: 11px; }
.dreams-card svg text:not([fill]) { fill: var(--vscode-foreground); }
.dreams-card svg .axis path, .dreams-card svg .axis line { stroke: var(--vscode-descriptionForeground); }
.dreams-card svg .grid line { stroke: var(--vscode-panel-border, #8883); }
.dreams-card .views { display: flex; gap: 16px; flex-wrap: wrap; }
.dreams-card .legend { display: flex; gap: 12px; flex-wrap: wrap; font-size: 0.9em; }
.dreams-card .swatch { display: inline-block; width: 10px; height: 10px; border-radius: 50%; border: 1px solid #333; }
.dreams-card .structure3d-host { margin: 6px 0; }
.dreams-card ol.steps { margin: 4px 0; padding-left: 22px; }
`;

/** Outputs may live in the document or in a shadow root: the style goes where the element is. */
export function ensureStyles(element: HTMLElement): void {
  const root = element.getRootNode();
  const host: ParentNode = root instanceof ShadowRoot ? root : document.head;
  if (host.querySelector('#dreams-renderer-style')) return;
  const s = document.createElement('style');
  s.id = 'dreams-renderer-style';
  s.textContent = CSS;
  host.append(s);
}
