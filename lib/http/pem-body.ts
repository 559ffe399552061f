/**
 * The PEM text of a certificate upload: the body as sent (`text/plain`, a `.pem` file, or a
 * multipart form whose file part holds it; the store reads the PEM blocks out of it), or a JSON
 * object whose `cert` field holds it.
 */
export function pemFromBody(raw: string): string {
  const text = raw.trim();
  if (text.startsWith('{')) {
    try {
      const parsed = JSON.parse(text) as { cert?: unknown };
      if (typeof parsed?.cert === 'string') return parsed.cert;
    } catch {
      // not JSON after all: let the store say what is wrong with it
    }
  }
  return raw;
}
