// The few parts of oidc-provider (v9, untyped JavaScript) that test/support/oidc-provider.ts uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Interaction { uid: string; prompt: { name: string } }
  interface Grant { addOIDCScope(scope: string): void; save(): Promise<string> }
  interface ProviderContext { oidc: { client: { clientId: string }; session: { accountId: string }; provider: Provider } }

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    Grant: new (properties: { clientId: string; accountId: string }) => Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  }
  export type { ProviderContext };
}
