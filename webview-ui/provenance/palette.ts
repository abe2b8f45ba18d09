/** Colours from the VS Code theme (CSS variables the webview receives), with fallbacks for a bare page. */
import type { NodeVerdict } from '../../src/shared/provenanceGraph';

export interface Palette {
  verdict: Record<NodeVerdict, string>;
  nodeFill: string;
  text: string;
  muted: string;
  edge: string;
  selection: string;
  background: string;
  /** Canvas fonts take no CSS variables: the theme's font family, resolved. */
  fontFamily: string;
}

function cssVar(style: CSSStyleDeclaration, name: string, fallback: string): string {
  const v = style.getPropertyValue(name).trim();
  return v || fallback;
}

export function themePalette(): Palette {
  const s = getComputedStyle(document.body);
  return {
    verdict: {
      pass: cssVar(s, '--vscode-charts-green', '#388a34'),
      warn: cssVar(s, '--vscode-charts-orange', '#d18616'),
      fail: cssVar(s, '--vscode-charts-red', '#e51400'),
      'not-judged': cssVar(s, '--vscode-charts-blue', '#1a85ff'),
      none: cssVar(s, '--vscode-descriptionForeground', '#717171'),
    },
    nodeFill: cssVar(s, '--vscode-editorWidget-background', '#f3f3f3'),
    text: cssVar(s, '--vscode-editor-foreground', '#333333'),
    muted: cssVar(s, '--vscode-descriptionForeground', '#717171'),
    edge: cssVar(s, '--vscode-editorLineNumber-foreground', '#999999'),
    selection: cssVar(s, '--vscode-focusBorder', '#0090f1'),
    background: cssVar(s, '--vscode-editor-background', '#ffffff'),
    fontFamily: s.fontFamily || 'sans-serif',
  };
}
