import { isPreviewAgent } from '../visits/preview-agents.js';
import type { ExtrasStep } from './link-extras.js';
import { previewPage } from './preview-page.js';
import { RedirectResponder } from './redirect-responder.js';

export interface PreviewStepDeps {
  /** BASE_URL: the short URL the card names (`og:url`); without it, the path alone. */
  readonly baseUrl?: string;
  readonly stylesheet?: string;
}

/**
 * A link with a preview answers link-preview agents (visits/preview-agents.ts, the same list
 * the analytics class `preview` uses) with its card instead of the redirect; people go on to the
 * next step. Only a live link shows it: a gone one is answered as before. The visit is recorded,
 * and the flusher counts it as a preview, as it does for a plain link's. A password link's page
 * names no destination: the password step comes after this one (ADR 0031).
 */
export function previewStep(deps: PreviewStepDeps): ExtrasStep {
  return (visit) => {
    const preview = visit.target.extras.options?.preview;
    if (preview === undefined || visit.decision.kind !== 'redirect' || visit.submitted !== undefined) return undefined;
    if (!isPreviewAgent(visit.req.headers['user-agent'] ?? '')) return undefined;
    const code = RedirectResponder.codeOf(visit.req.url) ?? '';
    const page = previewPage({
      preview,
      shortUrl: `${deps.baseUrl ?? ''}/${code}`,
      destination: visit.target.extras.passwordHash === undefined ? visit.url : undefined,
      stylesheet: deps.stylesheet,
    });
    return { kind: 'page', page, recorded: true };
  };
}
