/**
 * The slice of oidc-provider (ESM-only, no bundled types) that test/support/oidc-provider.ts uses.
 * Loaded with a dynamic import() from the CommonJS test files.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly issuer: string;
    /** Koa's request handler */
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: any[]) => void): this;
  }
  export const errors: {
    InvalidTarget: new (description?: string) => Error;
  };
  export default Provider;
}
