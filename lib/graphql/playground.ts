import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { projectFile } from '../project-file';

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

export interface PlaygroundReply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The folder of the playground's page and assets: `playground` in the template path (`templates/` by default). */
export function playgroundFolder(templatePath: string | undefined): string {
  return join(templatePath ? resolve(templatePath) : projectFile('templates'), 'playground');
}

/**
 * A GraphQL playground: the one of an API (`graphql.playground {enabled, path}`, default path
 * `/playground`): a GraphiQL page and its assets, all from the `playground` folder of the
 * template path. Only files in that folder are served. The dashboard's `/playground` is another.
 */
export class Playground {
  private readonly page: Buffer;
  private readonly assets = new Map<string, Buffer | undefined>();

  constructor(
    private readonly folder: string,
    /** where the page lives on the gateway, e.g. `/graph/playground` */
    base: string,
    endpoint: string,
    apiName: string,
  ) {
    for (const name of readdirSync(folder)) if (name !== 'index.html') this.assets.set(name, undefined);
    this.page = Buffer.from(
      readFileSync(join(folder, 'index.html'), 'utf8')
        .replaceAll('{{ASSETS}}', base)
        .replaceAll('{{ENDPOINT_JSON}}', JSON.stringify(endpoint).replace(/</g, '\\u003c'))
        .replaceAll('{{API_NAME}}', escapeHtml(apiName)),
    );
  }

  /** The reply for a path below the listen path, or undefined when it is not the playground's. */
  serve(relativePath: string, pagePath: string): PlaygroundReply | undefined {
    if (relativePath === pagePath || relativePath === `${pagePath}/`)
      return { status: 200, headers: { 'content-type': TYPES['.html'], 'cache-control': 'no-cache' }, body: this.page };
    if (!relativePath.startsWith(`${pagePath}/`)) return undefined;
    const name = relativePath.slice(pagePath.length + 1);
    if (!this.assets.has(name))
      return {
        status: 404,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ error: 'Not Found' })),
      };
    let body = this.assets.get(name);
    if (!body) this.assets.set(name, (body = readFileSync(join(this.folder, name))));
    return {
      status: 200,
      headers: {
        'content-type': TYPES[extname(name)] ?? 'application/octet-stream',
        'cache-control': 'public, max-age=86400',
      },
      body,
    };
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
