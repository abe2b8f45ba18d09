/** The built-in workflow templates, by id. Other templates register here. */
import { ADSORPTION_SEARCH } from './adsorptionSearch';
import { ADSORPTION_SITE_PREFERENCE } from './adsorptionSitePreference';
import { BEEF_ENSEMBLE } from './beefEnsemble';
import { LATTICE_CONSTANT } from './latticeConstant';
import { BAND_STRUCTURE } from './bandStructure';
import { DENSITY_OF_STATES } from './dos';
import { RELAX } from './everyday/relax';
import { MAGNETIC_ORDERING } from './everyday/magneticOrdering';
import { FORMATION_ENERGY } from './everyday/formationEnergy';
import { SURFACE_ENERGY } from './everyday/surfaceEnergy';
import type { WorkflowTemplate } from './types';

const BUILT_IN: readonly WorkflowTemplate[] = [
  LATTICE_CONSTANT,
  ADSORPTION_SITE_PREFERENCE,
  BEEF_ENSEMBLE,
  ADSORPTION_SEARCH,
  BAND_STRUCTURE,
  DENSITY_OF_STATES,
  RELAX,
  MAGNETIC_ORDERING,
  FORMATION_ENERGY,
  SURFACE_ENERGY,
];
const TEMPLATES = new Map<string, WorkflowTemplate>(BUILT_IN.map((t) => [t.id, t]));

export function registerWorkflow(template: WorkflowTemplate): void {
  TEMPLATES.set(template.id, template);
}

/** The templates that ship (what the editor's objective schema lists), whatever else registered. */
export function builtInWorkflowTemplates(): WorkflowTemplate[] {
  return [...BUILT_IN];
}

export function workflowTemplates(): WorkflowTemplate[] {
  return [...TEMPLATES.values()];
}

export function workflowTemplate(id: string): WorkflowTemplate | undefined {
  return TEMPLATES.get(id);
}

export * from './types';
export { LATTICE_CONSTANT } from './latticeConstant';
export { ADSORPTION_SITE_PREFERENCE } from './adsorptionSitePreference';
export { BEEF_ENSEMBLE } from './beefEnsemble';
export { ADSORPTION_SEARCH } from './adsorptionSearch';
export { BAND_STRUCTURE } from './bandStructure';
export { DENSITY_OF_STATES } from './dos';
