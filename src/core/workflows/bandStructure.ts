/**
 * The band structure of a crystal: structure, pseudopotentials, SCF settings (given or chosen by
 * sweeps), the production SCF, the standard path of its Bravais lattice (Setyawan–Curtarolo),
 * a 'bands' pw.x run on a copy of the SCF's charge density, bands.x, the band gap of an insulator
 * (direct or indirect, and where), and a report whose every number cites its artifact.
 */
import {
  electronicInputsFromText,
  ELECTRONIC_INPUT_SCHEMA,
  loadElectronicStructureFile,
  readRecordedElectronicInputs,
  resolveElectronicInputs,
} from './electronicStructure/inputs';
import { BAND_STRUCTURE_COMPOSERS } from './electronicStructure/report';
import { crystalSteps, SCF_ENERGY, scfSteps, settingsQuantities, settingsSteps, STRUCTURE } from './electronicStructure/steps';
import { defineWorkflow } from './defineWorkflow';

export const BAND_STRUCTURE = defineWorkflow({
  id: 'band-structure',
  title: 'Band structure and band gap',
  description:
    'Bands of a crystal along the standard path of its Bravais lattice (Setyawan–Curtarolo, from the symmetry of the standardised cell): ' +
    'an SCF (settings given, or chosen by a cutoff and a k sweep), a non-self-consistent bands run on its charge density, bands.x, and for ' +
    'an insulator the band gap (direct or indirect, where the band edges lie). Inputs: element (its ground-state crystal by default) or ' +
    'structure and lattice constant, functional, cutoffs and k-spacing (or sweeps), occupations (fixed for insulators), points per 1/Å of path.',
  inputSchema: ELECTRONIC_INPUT_SCHEMA,
  inputsFromText: (text) => electronicInputsFromText(text, 'bands'),
  loadInputFiles: loadElectronicStructureFile,
  resolveInputs: resolveElectronicInputs,
  readRecorded: readRecordedElectronicInputs,
  steps: (i) => {
    const settings = settingsSteps(i);
    return [
      ...crystalSteps(i),
      ...settings.steps,
      ...scfSteps(i, settings),
      {
        id: 'band-path',
        title: 'Standard band path of the lattice',
        worker: 'dft',
        tool: 'band_path',
        args: { structure: STRUCTURE, pointsPerInverseAngstrom: i.pointsPerInverseAngstrom },
        reasons: {
          structure: 'the primitive cell the SCF computes',
          pointsPerInverseAngstrom: `${i.pointsPerInverseAngstrom} k-points per 1/Å of path`,
        },
        dependsOn: ['structure'],
      },
      {
        id: 'bands-input',
        title: 'Bands input on the SCF charge density',
        worker: 'dft',
        tool: 'make_nscf_input',
        args: { scf: SCF_ENERGY, purpose: 'bands', kPoints: '$step.band-path.band_path', ...(i.nbnd ? { nbnd: i.nbnd } : {}) },
        reasons: {
          scf: 'the converged production SCF',
          purpose: 'bands along the path',
          kPoints: 'the standard path of the lattice',
          ...(i.nbnd ? { nbnd: 'as the objective asks' } : {}),
        },
        dependsOn: ['scf', 'band-path'],
      },
      {
        id: 'bands',
        title: 'Run pw.x bands on a copy of the SCF charge density',
        worker: 'hpc',
        tool: 'run_nscf',
        args: { input: '$step.bands-input.pw_input', scf: SCF_ENERGY },
        reasons: { input: 'the bands input', scf: 'the SCF whose charge density it reads' },
        dependsOn: ['bands-input'],
      },
      {
        id: 'bands-x',
        title: 'bands.x: the bands along the path',
        worker: 'hpc',
        tool: 'run_bands_x',
        args: { bands: '$step.bands.nscf_output', kPoints: '$step.band-path.band_path' },
        reasons: { bands: 'the bands run', kPoints: 'the path it followed' },
        dependsOn: ['bands'],
      },
      ...(i.metal
        ? []
        : [
            {
              id: 'gap',
              title: 'Band gap: where the band edges lie',
              worker: 'dft' as const,
              tool: 'band_gap',
              args: { bands: '$step.bands-x.band_structure' },
              reasons: { bands: 'the band structure of an insulator' },
              dependsOn: ['bands-x'],
            },
          ]),
      {
        id: 'report',
        title: 'Report the band gap and the settings behind it',
        worker: 'dft',
        tool: 'write_report',
        args: { title: { $compose: 'title' }, text: { $compose: 'text' }, claims: { $compose: 'claims' } },
        reasons: {
          title: 'names the study',
          text: 'the gap, where its edges lie, and the settings',
          claims: 'one claim per reported number, each citing its artifact',
        },
        reportQuantities: [...(i.metal ? [] : ['band_gap', 'direct_gap']), 'kpoint_count', ...settingsQuantities(i)],
        dependsOn: [i.metal ? 'bands-x' : 'gap'],
      },
    ];
  },
  objective: (i) => `band structure of ${i.structureFile ?? `${i.structure} ${i.species.join('')}`} with ${i.settings.functional}`,
  composers: BAND_STRUCTURE_COMPOSERS,
});
