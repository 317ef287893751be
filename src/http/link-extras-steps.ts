import type { ClickLimitStore } from '../core/click-limit-ports.js';
import { clickLimitStep, limitReachedResponse } from './click-limit-step.js';
import { fallbackStep } from './fallback-step.js';
import type { ExtrasStep } from './link-extras.js';
import { previewStep } from './preview-step.js';
import { routingStep, type RoutingDeps } from './routing-step.js';
import { confirmStep, passwordStep, type PasswordStepDeps } from './link-gate-steps.js';

/** What the steps need from the running service. */
export interface ExtrasStepDeps {
  /** The page stylesheet's address, when the UI is built. */
  readonly stylesheet?: string;
  /** BASE_URL, for the short URL a page names. */
  readonly baseUrl?: string;
  /** Where limited links take their clicks. */
  readonly clickLimits: ClickLimitStore;
  /** Country lookup, visitor address and day salts for routes and variants (routing-step.ts). */
  readonly routing: RoutingDeps;
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
    fallbackStep,
    previewStep(deps),
    passwordStep({ ...deps.password, stylesheet: deps.stylesheet }),
    confirmStep(deps.stylesheet),
    routingStep(deps.routing),
    clickLimitStep(deps.clickLimits, limitReachedResponse(deps.stylesheet)),
  ];
}
