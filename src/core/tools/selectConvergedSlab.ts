/**
 * select_converged_slab: the thinnest slab (or the smallest vacuum) on which a binding
 * quantity — ΔBE or an adsorption energy — agrees with the largest slab tested. Each
 * value's slab is found in the provenance upstream of it, so a value cannot be paired
 * with the wrong slab. The chosen slab is returned as its own structure artifact for the
 * calculations that follow; an unconverged sweep gives provisional results.
 */
import { defineTool } from './defineTool';
import { ARTIFACTS } from '../artifacts/contracts';
import type { Structure } from '../dft/types';
import { artifactRefListSchema, artifactRefSchema, quantitySchema } from '../guard/schemaAnnotations';
import { parseRef } from '../provenance/view';
import { upstreamPath } from '../provenance/upstream';
import { selectConvergedSlab, type SlabSelection, type SlabVariant } from '../dft/slabSelection';
import { ARTIFACT } from '../artifacts/shapes';
import { service } from './services';

export const selectConvergedSlabTool = defineTool({
  name: 'select_converged_slab',
  description:
    'Choose the slab for adsorption calculations from a sweep of slabs differing in layers (at one vacuum) or in vacuum (at one ' +
    'number of layers): the smallest slab whose ΔBE (or adsorption energy), and that of every larger slab, is within the tolerance ' +
    'of the largest slab tested. Returns the table and the chosen slab.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      values: artifactRefListSchema(
        'One ΔBE (delta_be) or adsorption energy per slab of the sweep.',
        { names: [ARTIFACT.deltaBe, ARTIFACT.adsorptionEnergy], unit: 'eV' },
        { minItems: 1, maxItems: 8 },
      ),
      previous: artifactRefSchema(
        'A converged sweep in the other dimension (converged_slab): its chosen slab and value join this sweep, so that slab is not computed twice.',
        { names: [ARTIFACT.convergedSlab], kinds: ['table'] },
      ),
      dimension: { type: 'string', enum: ['layers', 'vacuum'], description: 'What the slabs of the sweep differ in.' },
      toleranceEv: quantitySchema('Largest accepted deviation from the largest slab', 'eV', { exclusiveMinimum: 0, maximum: 0.5 }),
    },
    required: ['values', 'dimension', 'toleranceEv'],
    additionalProperties: false,
  },
  rules: ['settings-comparable'],
  outputs: [ARTIFACTS.convergedSlab, ARTIFACTS.slab],
  crossParameterJudge: true,
  parameterNotes: { toleranceEv: 'well below the quantity studied: 0.01–0.02 eV for a ΔBE of ~0.1 eV.' },
  async run(a, ctx) {
    const view = service(ctx, 'provenance', 'select_converged_slab', 'the guard passes the run provenance to every call');
    const variants: SlabVariant[] = a.values.map((ref) => {
      const id = parseRef(ref)?.artifactId ?? '';
      const value = view.artifact(id);
      const slabs = upstreamPath(view, [id], 10_000)
        .map((u) => view.artifact(u))
        .filter((u) => u?.name === 'slab' && u.kind === 'structure');
      const distinct = [...new Map(slabs.map((s) => [s!.contentHash, s!])).values()];
      if (!value || typeof value.value !== 'number')
        throw new Error(`select_converged_slab: ${ref} is not a number in eV; reference delta_be or adsorption_energy outputs.`);
      if (distinct.length !== 1) {
        throw new Error(
          `select_converged_slab: ${ref} was computed from ${distinct.length === 0 ? 'no slab' : `${distinct.length} different slabs (${distinct.map((s) => s!.id).join(', ')})`}; each value of the sweep must come from one slab.`,
        );
      }
      const slab = distinct[0]!;
      const info = (slab.value as Structure).info ?? {};
      return {
        layers: Number(info.layers),
        vacuumAngstrom: Number(info.vacuum),
        fixedLayers: Number(info.fixedLayers ?? 0),
        valueEv: value.value,
        slab: slab.id,
        source: value.id,
      };
    });
    if (a.previous) {
      const prev = ctx.resolve(a.previous) as SlabSelection;
      if (prev.dimension === a.dimension)
        throw new Error(
          `select_converged_slab: ${a.previous} is a ${prev.dimension} sweep too; previous must be the sweep in the other dimension.`,
        );
      variants.push(prev.chosen);
    }
    const sel = selectConvergedSlab(variants, a.dimension, a.toleranceEv);
    const chosenSlab = view.artifact(sel.chosen.slab)!;
    const status = sel.converged ? ('final' as const) : ('provisional' as const);
    const table = a.dimension === 'layers' ? 'layers' : 'vacuum (Å)';
    return {
      artifacts: [
        { kind: 'table', name: ARTIFACT.convergedSlab, value: sel, status, inputs: [sel.chosen.slab] },
        {
          kind: 'structure',
          name: 'slab',
          value: chosenSlab.value,
          status,
          inputs: [sel.chosen.slab],
          meta: { ...(chosenSlab.meta ?? {}), chosenBy: 'select_converged_slab', dimension: a.dimension },
        },
      ],
      summary:
        `${a.dimension} sweep (${table}: ${sel.tested.map((t) => `${a.dimension === 'layers' ? t.layers : t.vacuumAngstrom} → ${t.valueEv.toFixed(3)} eV (Δ ${(t.deviationEv * 1000).toFixed(0)} meV)`).join(', ')}): ` +
        (sel.converged
          ? `chose ${sel.chosen.layers} layers, ${sel.chosen.vacuumAngstrom} Å vacuum (${sel.chosen.fixedLayers} fixed), within ${a.toleranceEv} eV of the largest slab`
          : `not converged — ${sel.advice}`),
    };
  },
});
