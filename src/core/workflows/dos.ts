/**
 * The density of states of a crystal: structure, pseudopotentials, SCF settings (given or chosen
 * by sweeps), the production SCF, an nscf run on a mesh `dosMeshFactor` times as fine in each
 * direction (optimised tetrahedra or the SCF's smearing) on a copy of its charge density, dos.x
 * (total DOS, Fermi energy), projwfc.x (PDOS per species and l, Löwdin charges), and a report.
 */
import {
  electronicInputsFromText,
  ELECTRONIC_INPUT_SCHEMA,
  loadElectronicStructureFile,
  readRecordedElectronicInputs,
  resolveElectronicInputs,
} from './electronicStructure/inputs';
import { DOS_COMPOSERS } from './electronicStructure/report';
import { crystalSteps, SCF_ENERGY, scfSteps, settingsQuantities, settingsSteps } from './electronicStructure/steps';
import { defineWorkflow } from './defineWorkflow';
import type { TemplateStep } from './types';

export const DENSITY_OF_STATES = defineWorkflow({
  id: 'dos',
  title: 'Density of states and projected DOS',
  description:
    'The total DOS and the DOS projected per species and angular momentum: an SCF (settings given, or chosen by sweeps), a ' +
    "non-self-consistent run on a mesh at least as dense as the SCF's (twice as fine by default) with optimised tetrahedra or smearing, " +
    'dos.x and projwfc.x. Inputs: element or structure, functional, cutoffs and k-spacing (or sweeps), dosMeshFactor, dosOccupations, pdos.',
  inputSchema: ELECTRONIC_INPUT_SCHEMA,
  inputsFromText: (text) => electronicInputsFromText(text, 'dos'),
  loadInputFiles: loadElectronicStructureFile,
  resolveInputs: resolveElectronicInputs,
  readRecorded: readRecordedElectronicInputs,
  steps: (i) => {
    const settings = settingsSteps(i);
    const pdos: TemplateStep[] = i.pdos
      ? [
          {
            id: 'projwfc',
            title: 'projwfc.x: DOS per species and angular momentum',
            worker: 'hpc',
            tool: 'run_projwfc',
            args: { nscf: '$step.nscf.nscf_output', deltaEEv: i.deltaEEv },
            reasons: { nscf: 'the nscf run', deltaEEv: `${i.deltaEEv} eV grid` },
            dependsOn: ['nscf'],
          },
        ]
      : [];
    return [
      ...crystalSteps(i),
      ...settings.steps,
      ...scfSteps(i, settings),
      {
        id: 'nscf-input',
        title: `nscf input on a mesh ${i.dosMeshFactor}× the SCF's`,
        worker: 'dft',
        tool: 'make_nscf_input',
        args: {
          scf: SCF_ENERGY,
          purpose: 'dos',
          kMesh: { $compose: 'dosMesh' },
          occupations: i.dosOccupations,
          ...(i.nbnd ? { nbnd: i.nbnd } : {}),
        },
        reasons: {
          scf: 'the converged production SCF',
          purpose: 'a DOS',
          kMesh: `${i.dosMeshFactor}× the SCF's mesh in each direction`,
          occupations:
            i.dosOccupations === 'tetrahedra_opt' ? 'optimised tetrahedra: a sharp DOS without a smearing width' : "the SCF's smearing",
          ...(i.nbnd ? { nbnd: 'as the objective asks' } : {}),
        },
        dependsOn: ['scf'],
      },
      {
        id: 'nscf',
        title: 'Run pw.x nscf on a copy of the SCF charge density',
        worker: 'hpc',
        tool: 'run_nscf',
        args: { input: '$step.nscf-input.pw_input', scf: SCF_ENERGY },
        reasons: { input: 'the nscf input', scf: 'the SCF whose charge density it reads' },
        dependsOn: ['nscf-input'],
      },
      {
        id: 'dos-x',
        title: 'dos.x: total DOS and Fermi energy',
        worker: 'hpc',
        tool: 'run_dos_x',
        args: { nscf: '$step.nscf.nscf_output', deltaEEv: i.deltaEEv },
        reasons: { nscf: 'the nscf run', deltaEEv: `${i.deltaEEv} eV grid` },
        dependsOn: ['nscf'],
      },
      ...pdos,
      {
        id: 'report',
        title: 'Report the DOS, the Fermi energy and the settings',
        worker: 'dft',
        tool: 'write_report',
        args: { title: { $compose: 'title' }, text: { $compose: 'text' }, claims: { $compose: 'claims' } },
        reasons: {
          title: 'names the study',
          text: 'the DOS, its mesh and the settings',
          claims: 'one claim per reported number, each citing its artifact',
        },
        reportQuantities: ['fermi_energy', ...settingsQuantities(i)],
        dependsOn: ['dos-x', ...(i.pdos ? ['projwfc'] : [])],
      },
    ];
  },
  objective: (i) => `density of states of ${i.structureFile ?? `${i.structure} ${i.species.join('')}`} with ${i.settings.functional}`,
  composers: {
    ...DOS_COMPOSERS,
    // the SCF's mesh, as its energy records it, times the factor
    dosMesh: (ctx) => {
      const scf = ctx.ref('scf', 'total_energy');
      const mesh = scf ? (ctx.provenance.artifact(scf)?.meta?.settings as { kMesh?: number[] } | undefined)?.kMesh : undefined;
      if (!mesh) throw new Error("the DOS mesh needs the SCF's mesh, which its energy does not record yet; run the SCF first.");
      return mesh.map((n) => n * ctx.inputs.dosMeshFactor);
    },
  },
});
