/** The built-in workflow templates, by id. Other templates register here. */
import { LATTICE_CONSTANT } from './latticeConstant';
import type { WorkflowTemplate } from './types';

const TEMPLATES = new Map<string, WorkflowTemplate>([[LATTICE_CONSTANT.id, LATTICE_CONSTANT]]);

export function registerWorkflow(template: WorkflowTemplate): void {
  TEMPLATES.set(template.id, template);
}

export function workflowTemplates(): WorkflowTemplate[] {
  return [...TEMPLATES.values()];
}

export function workflowTemplate(id: string): WorkflowTemplate | undefined {
  return TEMPLATES.get(id);
}

export * from './types';
export { LATTICE_CONSTANT } from './latticeConstant';
