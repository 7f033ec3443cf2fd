// Media types of skill files by extension, and whether a file goes out as text or base64.
const TYPES: Record<string, string> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/plain',
  py: 'text/x-python',
  sh: 'application/x-sh',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  zip: 'application/zip',
};

export function mimeOf(path: string): string {
  const dot = path.lastIndexOf('.');
  const ext = dot >= 0 ? path.slice(dot + 1).toLowerCase() : '';
  return TYPES[ext] ?? 'application/octet-stream';
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The file as `text` when its bytes are UTF-8 and its type is textual (a UTF-8 round trip then
 * gives back exactly these bytes, BOM and CR LF included), else as base64 `blob`.
 */
export function contentOf(path: string, bytes: Uint8Array): { text: string } | { blob: string } {
  const mime = mimeOf(path);
  const textual = mime.startsWith('text/') || /json|yaml|toml|xml|x-sh/.test(mime);
  if (textual) {
    try {
      return { text: strict.decode(bytes) };
    } catch {
      // Not UTF-8: sent as bytes.
    }
  }
  return { blob: Buffer.from(bytes).toString('base64') };
}
