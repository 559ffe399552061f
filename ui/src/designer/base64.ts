/** Base64 of UTF-8 text, as the reference gateway stores inline templates, JWT sources and OpenID client ids. */
export function toBase64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Stored text for display: base64 decoded when it is base64 of UTF-8 text (the server's test), else as written. */
export function fromBase64(source: string): string {
  const compact = source.replace(/\s+/g, '');
  if (compact === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 !== 0) return source;
  try {
    const binary = atob(compact);
    if (btoa(binary) !== compact) return source;
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return source;
  }
}
