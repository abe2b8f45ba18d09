/**
 * The one way to define a tool. A tool declares:
 *   - its input as JSON Schema (what ajv checks and the model sees, with the guard's
 *     annotations from guard/schemaAnnotations.ts); its body's argument type is inferred from
 *     it (TypeBox's JSON Schema inference), so the body never casts its arguments;
 *   - the services it cannot work without (checked before the body runs, with what to
 *     configure), typed from tools/services.ts, beside the ones it may use when present;
 *   - the artifacts it may create (contracts from artifacts/contracts.ts): the registry refuses
 *     any other, and `ctx.artifact(contract, draft)` types each draft's value by its contract.
 *
 *   export const fitEosTool = defineTool({
 *     name: 'fit_eos', description: '...', roles: ['dft'], rules: [...],
 *     input: { type: 'object', properties: { energies: artifactRefListSchema(...), form: { type: 'string', enum: [...] } }, ... },
 *     outputs: [ARTIFACTS.eosFit],
 *     async run(args, ctx) { ... ctx.artifact(ARTIFACTS.eosFit, { value, meta }) ... },
 *   });
 */
import type { XStatic } from 'typebox/schema';
import type { ArtifactContract } from '../artifacts/contracts';
import type { AgentRole } from '../canvas/types';
import type { GuardedToolSpec, ToolOutput, ToolRunContext, ToolServices } from '../guard/toolSpec';
import type { ArtifactDraft, DeclaredOutputs } from '../provenance/types';
import { ToolSetupError, type CatalogueServices } from './services';

/** A draft of a declared artifact: kind, name and unit come from its contract. */
export type DraftOf<C extends ArtifactContract> = Omit<ArtifactDraft, 'kind' | 'name' | 'unit' | 'value' | 'meta'> & {
  value?: NonNullable<C['shape']>['value'];
  meta?: NonNullable<C['shape']>['meta'];
  /** Only where the contract leaves the unit open (a table whose numbers' unit depends on the call). */
  unit?: string;
};

/** What a tool's body gets: the run context, its services typed, and a way to draft its declared artifacts. */
export interface ToolContext<S extends object, O extends readonly ArtifactContract[]> extends ToolRunContext {
  services: S & ToolServices;
  /** A draft of one of the tool's declared artifacts. */
  artifact<C extends O[number]>(contract: C, draft: DraftOf<C>): ArtifactDraft;
}

/**
 * The argument type of an input schema: its properties (and which are required). The schema's
 * conditional parts (allOf/anyOf/oneOf/if/then/else/not: "pseudopotentials when pw.x", "a
 * spacing or a mesh") only refine which arguments must be present, which ajv checks; the
 * inference leaves them out, so an argument they require is still optional to the body
 * (TypeBox reads an if/then without else as always taking the then branch).
 */
type Conditional = 'allOf' | 'anyOf' | 'oneOf' | 'if' | 'then' | 'else' | 'not';
export type ArgsOf<I> = XStatic<I extends object ? Omit<I, Conditional> : I>;

/** The services a tool requires (present, non-null) on top of the ones it may use. */
type WithRequired<S, R extends keyof S> = S & { [K in R]-?: NonNullable<S[K]> };

export interface ToolDefinition<I, O extends readonly ArtifactContract[], Svc extends object, R extends keyof Svc> {
  name: string;
  description: string;
  roles: AgentRole[];
  /** JSON Schema of the arguments (draft-07, the guard's annotations allowed); the body's argument type is inferred from it. */
  input: I;
  /** Tier-1 rule names (guard/rules) that check this tool's calls. */
  rules: string[];
  /** The artifacts it may create. */
  outputs: O;
  /** Services it cannot work without, each with what the host must configure when it is missing. */
  requires?: { [K in R]: string };
  crossParameterJudge?: boolean;
  parameterJudge?: boolean;
  resumable?: boolean;
  parameterNotes?: Record<string, string>;
  run(args: ArgsOf<I>, ctx: ToolContext<WithRequired<Svc, R>, O>): Promise<ToolOutput>;
}

/** The declaration the registry checks: each contract's kind, and its unit when it fixes one. */
export function declaredOutputs(contracts: readonly ArtifactContract[]): DeclaredOutputs {
  return Object.fromEntries(contracts.map((c) => [c.name, { kind: c.kind, ...(c.unit !== undefined ? { unit: c.unit } : {}) }]));
}

/** Draft a declared artifact: its contract's kind, name and unit. */
function draftOf(contract: ArtifactContract, draft: Omit<ArtifactDraft, 'kind' | 'name'>): ArtifactDraft {
  return { ...draft, kind: contract.kind, name: contract.name, ...(contract.unit !== undefined ? { unit: contract.unit } : {}) };
}

/**
 * A catalogue tool (services of tools/services.ts). `defineToolWith<Services>()` gives the same
 * for a tool whose host offers more (the convergence advisor's).
 */
export function defineTool<const I, const O extends readonly ArtifactContract[], R extends keyof CatalogueServices = never>(
  def: ToolDefinition<I, O, CatalogueServices, R>,
): GuardedToolSpec {
  return defineToolWith<CatalogueServices>()(def);
}

export function defineToolWith<Svc extends { provenance: unknown }>() {
  return <const I, const O extends readonly ArtifactContract[], R extends keyof Svc = never>(
    def: ToolDefinition<I, O, Svc, R>,
  ): GuardedToolSpec => {
    const { input, outputs, requires, run, ...rest } = def;
    return {
      ...rest,
      schema: input as object,
      outputs: declaredOutputs(outputs),
      async run(raw, ctx) {
        for (const [name, hint] of Object.entries<string>(requires ?? {})) {
          const s = ctx.services[name];
          if (s === undefined || s === null)
            throw new ToolSetupError(`${def.name} needs the ${name} service, which this run was not given: ${hint}`);
        }
        // The one boundary where the untyped seam becomes typed, checked by a test of its own (test/unit/architecture/casts.unit.test.ts):
        // ajv checked the arguments against `input` before the guard let the call through (guard/assessCall.ts), and the
        // run's session builds the services against the catalogue's type (run/session.ts), the required ones checked above.
        const args = raw as ArgsOf<I>;
        const services = ctx.services as WithRequired<Svc, R> & ToolServices;
        return run(args, { ...ctx, services, artifact: (contract, draft) => draftOf(contract, draft) });
      },
    };
  };
}
