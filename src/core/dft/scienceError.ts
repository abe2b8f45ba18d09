/**
 * An error from the DFT science modules (structures, k-meshes, convergence, EOS,
 * adsorption). The message says what was wrong, the offending input and what to do;
 * `input` carries the offending values so an agent or a UI can show them.
 */
import { DreamsError } from '../errors';
export class DftScienceError extends DreamsError<'science'> {
  override readonly name = 'DftScienceError';
  constructor(
    message: string,
    readonly input: Record<string, unknown> = {},
  ) {
    super('science', message);
  }
}
