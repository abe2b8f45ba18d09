/** The pw.x input language service (pure; the VS Code adapter maps it to the editor's API). */
export {
  completionsAt,
  hoverAt,
  quickFixesAt,
  versionFor,
  type CompletionItem,
  type CompletionKind,
  type Hover,
  type LanguageOptions,
  type QuickFixAction,
} from './service';
export { isPwInput, qeVersionFromComment } from '../detect';
