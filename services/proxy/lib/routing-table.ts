interface TrieNode<T> {
  children: Map<string, TrieNode<T>>;
  value?: T;
}

export interface RouteMatch<T> {
  value: T;
  /** How many characters of the path the listen path covered (what `strip_listen_path` removes). */
  prefixLength: number;
}

function newNode<T>(): TrieNode<T> {
  return { children: new Map() };
}

/**
 * Listen paths keyed by path segment, one trie per host plus one for APIs without a domain.
 * A lookup walks the request path once, so its cost grows with the path's length, never with
 * the number of APIs. Listen paths match whole segments: `/foo` serves `/foo` and `/foo/bar`,
 * not `/foobar`. The longest match wins; on a tie, the API bound to the request's host wins.
 */
export class RoutingTable<T> {
  private readonly anyHost = newNode<T>();
  private readonly byHost = new Map<string, TrieNode<T>>();
  size = 0;

  /** Returns false when the listen path and domain are already taken. */
  add(listenPath: string, domain: string, value: T): boolean {
    let root = this.anyHost;
    if (domain !== '') {
      root = this.byHost.get(domain) ?? newNode<T>();
      this.byHost.set(domain, root);
    }
    let node = root;
    for (const segment of segmentsOf(listenPath)) {
      let child = node.children.get(segment);
      if (!child) {
        child = newNode<T>();
        node.children.set(segment, child);
      }
      node = child;
    }
    if (node.value !== undefined) return false;
    node.value = value;
    this.size++;
    return true;
  }

  /** Whether some API is bound to a domain: otherwise the request's host need not be read. */
  get hostBound(): boolean {
    return this.byHost.size > 0;
  }

  match(host: string, path: string): RouteMatch<T> | undefined {
    const hostRoot = this.byHost.size > 0 ? this.byHost.get(host) : undefined;
    const general = longestMatch(this.anyHost, path);
    if (!hostRoot) return general;
    const specific = longestMatch(hostRoot, path);
    if (!specific) return general;
    return !general || specific.prefixLength >= general.prefixLength ? specific : general;
  }
}

function segmentsOf(listenPath: string): string[] {
  const trimmed = listenPath.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

function longestMatch<T>(root: TrieNode<T>, path: string): RouteMatch<T> | undefined {
  let best: RouteMatch<T> | undefined = root.value !== undefined ? { value: root.value, prefixLength: 0 } : undefined;
  let node = root;
  let start = 1;
  while (start <= path.length) {
    let end = path.indexOf('/', start);
    if (end === -1) end = path.length;
    const child = node.children.get(path.slice(start, end));
    if (!child) break;
    node = child;
    if (node.value !== undefined) best = { value: node.value, prefixLength: end };
    start = end + 1;
  }
  return best;
}
