import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import { TIER_ONE_RULES } from '../../../../src/core/guard/rules';
import { validatorFor } from '../../../../src/core/guard/schemaCheck';
import { ARTIFACT_KEYWORD, UNIT_KEYWORD } from '../../../../src/core/guard/schemaAnnotations';
import type { ToolUseBlock } from '../../../../src/core/llm/types';

const registry = new ToolRegistry();

describe('tool catalogue', () => {
  it('lists the tools the workers need', () => {
    assert.deepEqual(
      registry
        .all()
        .map((t) => t.name)
        .sort(),
      [
        'adsorption_energy',
        'adsorption_search',
        'band_gap',
        'band_path',
        'beef_ensemble_stats',
        'build_bulk',
        'build_molecule',
        'build_slab',
        'canvas_inspect',
        'canvas_read',
        'canvas_write',
        'delta_be',
        'energy_difference',
        'evaluate_adsorption_hypothesis',
        'fit_eos',
        'generate_series',
        'import_structure',
        'interrupted_geometry',
        'lattice_constant_from_volume',
        'magnetic_configuration',
        'magnetization',
        'make_nscf_input',
        'make_pw_input',
        'place_adsorbate',
        'prepare_adsorption_surface',
        'relax_structure',
        'relaxation_result',
        'relaxed_structure',
        'run_bands_x',
        'run_dos_x',
        'run_nscf',
        'run_projwfc',
        'run_pw',
        'select_converged_settings',
        'select_converged_slab',
        'select_pseudopotentials',
        'write_report',
        'write_structure_files',
      ],
    );
  });

  for (const spec of new ToolRegistry().all()) {
    it(`${spec.name}: schema compiles, rules exist, notes name real parameters, no free-form command or path`, () => {
      validatorFor(spec.schema, spec.name);
      for (const r of spec.rules) assert.ok(TIER_ONE_RULES[r], `${spec.name} names unknown rule ${r}`);
      const props = Object.keys((spec.schema as { properties: object }).properties);
      for (const p of Object.keys(spec.parameterNotes ?? {})) assert.ok(props.includes(p), `${spec.name}: note for unknown parameter ${p}`);
      assert.ok(!props.some((p) => /command|shell|script|path|file/i.test(p)), `${spec.name} takes ${props.join(', ')}`);
      assert.equal(
        (spec.schema as { additionalProperties?: boolean }).additionalProperties,
        false,
        `${spec.name} must refuse unknown arguments`,
      );
      assert.ok(spec.description.length > 40 && spec.roles.length > 0);
    });
  }

  it('offers each role its tools, wrapped as {arguments, references, reasons, context}, without guard annotations', () => {
    const defs = registry.definitionsFor('dft');
    assert.ok(defs.some((d) => d.name === 'fit_eos'));
    assert.ok(!registry.definitionsFor('hpc').some((d) => d.name === 'fit_eos'), 'fit_eos is not an HPC tool');
    const fit = defs.find((d) => d.name === 'fit_eos')!.inputSchema as { properties: Record<string, unknown>; required: string[] };
    assert.deepEqual(Object.keys(fit.properties), ['arguments', 'references', 'reasons', 'context']);
    assert.deepEqual(fit.required, ['arguments', 'reasons', 'context']);
    const text = JSON.stringify(defs);
    assert.ok(!text.includes(ARTIFACT_KEYWORD) && !text.includes(UNIT_KEYWORD), 'annotations are stripped for the model');
  });

  it('gives the judges every judged tool with its parameter notes', () => {
    const cat = registry.judgeCatalogue();
    assert.ok(!cat.some((t) => t.name === 'canvas_read'), 'nothing to judge in a canvas read');
    const make = cat.find((t) => t.name === 'make_pw_input')!;
    assert.match(make.parameters.degaussRy!.note!, /0\.01–0\.02 Ry/);
  });

  describe('parsing a model tool use', () => {
    const use = (name: string, input: unknown, inputError?: string): ToolUseBlock => ({
      type: 'tool_use',
      id: 'tu_1',
      name,
      input,
      ...(inputError ? { inputError } : {}),
    });
    it('unwraps arguments, references, reasons and context', () => {
      const r = registry.parse(
        use('fit_eos', {
          arguments: { energies: ['a-1'], form: 'vinet' },
          references: {},
          reasons: { form: 'soft metal' },
          context: 'step eos',
        }),
        'dft',
        'claude-sonnet-5-5',
        'eos',
      );
      assert.ok(r.ok);
      assert.deepEqual(r.proposed, {
        tool: 'fit_eos',
        args: { energies: ['a-1'], form: 'vinet' },
        refs: {},
        reasons: { form: 'soft metal' },
        context: 'step eos',
        agent: { role: 'dft', model: 'claude-sonnet-5-5' },
        step: 'eos',
      });
    });
    it("refuses an unknown tool listing the role's tools", () => {
      const r = registry.parse(use('run_shell', { arguments: {} }), 'hpc');
      assert.ok(!r.ok);
      assert.match(r.message, /unknown tool "run_shell". Tools available to hpc: .*run_pw/);
    });
    it('refuses a tool of another role', () => {
      const r = registry.parse(use('fit_eos', { arguments: {} }), 'hpc');
      assert.ok(!r.ok);
      assert.match(r.message, /not available to the hpc agent; it belongs to dft/);
    });
    it('asks for the wrapper when the arguments come bare, and reports unreadable JSON', () => {
      const bare = registry.parse(use('fit_eos', { energies: [] }), 'dft');
      assert.ok(
        !bare.ok &&
          /unknown field "energies" beside arguments, references, reasons and context: put the tool's own arguments inside "arguments"/.test(
            bare.message,
          ),
        bare.ok ? '' : bare.message,
      );
      const broken = registry.parse(use('fit_eos', '{"arguments": ', 'Unexpected end of JSON input'), 'dft');
      assert.ok(!broken.ok && /not valid JSON \(Unexpected end of JSON input\)/.test(broken.message));
    });
  });
});
