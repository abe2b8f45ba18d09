/**
 * The most stable configuration of an adsorbate on a slab, by the AdsMind closed loop: a
 * planner proposes site, binding atoms and orientation; the guard validates each proposal
 * before anything is computed; the executor screens and relaxes it; the analyzer names
 * slips and dissociation; FORBID and TERMINATE steer and stop the loop. Every relaxation
 * and adsorption energy is a guarded call with its settings checked and its result
 * recorded with provenance (steps.ts, agents/tools/adsorptionSearch/).
 */
import { defineWorkflow } from './defineWorkflow';
import { ADSORPTION_SEARCH_INPUT_SCHEMA, resolveSearchInputs } from './adsorptionSearch/inputs';
import { searchInputsFromText, searchObjective } from './adsorptionSearch/objectiveText';
import { ADSORPTION_SEARCH_COMPOSERS, claimQuantity } from './adsorptionSearch/report';
import { loadSlabFile } from './adsorptionSearch/slabFile';
import { searchSteps } from './adsorptionSearch/steps';

export const ADSORPTION_SEARCH = defineWorkflow({
  id: 'adsorption-search',
  title: 'Most stable adsorption configuration (AdsMind closed loop)',
  description:
    'Find the most stable configuration of an adsorbate on a slab with few relaxations: a planner (offline heuristic or the LLM ' +
    'planner) proposes hypotheses (site type, surface atoms, binding atoms, orientation); the guard refuses invalid, repeated or ' +
    'forbidden ones before any relaxation; each valid one is screened by single points, relaxed and analysed for geometric and ' +
    'chemical slip and dissociation; slipped sites are FORBIDDEN; the search stops when a relaxation reproduces the best ' +
    'configuration (TERMINATE), when the planner stops, or at the attempt budget. Inputs: slab (generated metal facet, or a slab file: extxyz, XSF, CIF, POSCAR, pw.x ' +
    'file), adsorbate (name or SMILES from the molecule table), calculator (EMT for testing, or pw.x with its settings), planner, budget, ablations.',
  inputSchema: ADSORPTION_SEARCH_INPUT_SCHEMA,
  inputsFromText: searchInputsFromText,
  loadInputFiles: loadSlabFile,
  usesPwx: (inputs) => !['emt', 'ipi'].includes(inputs.calculator.kind),
  resolveInputs: resolveSearchInputs,
  steps: (i) => {
    return [
      ...searchSteps(i),
      {
        id: 'report',
        title: 'Report the most stable configuration and how the search found it',
        worker: 'dft',
        tool: 'write_report',
        args: { title: { $compose: 'title' }, text: { $compose: 'text' }, claims: { $compose: 'claims' } },
        reasons: {
          title: 'names the study',
          text: 'the answer, every iteration, the references and their settings',
          claims: 'the best adsorption energy, citing the artifact of its iteration',
        },
        reportQuantities: [claimQuantity(i)],
        dependsOn: ['search'],
      },
    ];
  },
  objective: searchObjective,
  // resolving reads the machine's pseudopotentials (a pw.x search); the line needs none of it
  objectiveBeforeResolving: searchObjective,
  composers: ADSORPTION_SEARCH_COMPOSERS,
});
