import type { ExtrasStep } from './link-extras.js';
import { confirmStep, passwordStep, type PasswordStepDeps } from './link-gate-steps.js';

/** What the steps need from the running service. */
export interface ExtrasStepDeps {
  /** The page stylesheet's address, when the UI is built. */
  readonly stylesheet?: string;
  /** The password step's hasher, unlock cookie and attempt limit. */
  readonly password: Omit<PasswordStepDeps, 'stylesheet'>;
}

/**
 * The steps that answer a link with extras, in the order docs/architecture.md gives (ADR 0031):
 * a gone or used-up link's fallback; the preview page for link-preview bots; the password page;
 * the confirmation page; the route or variant that chooses the destination; and last the click
 * limit, the one step that writes, so that nothing before it may consume a click.
 */
export function linkExtrasSteps(deps: ExtrasStepDeps): ExtrasStep[] {
  return [
    passwordStep({ ...deps.password, stylesheet: deps.stylesheet }),
    confirmStep(deps.stylesheet),
  ];
}
