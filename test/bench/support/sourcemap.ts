// Which sources the bytes of a built file come from, read from its source map: every mapped
// segment of the generated code is charged to its source, up to the next segment.
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE = new Map([...B64].map((c, i) => [c, i]));

function decodeSegment(seg: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of seg) {
    const digit = VALUE.get(ch);
    if (digit === undefined) return out;
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      const negative = value & 1;
      value >>>= 1;
      out.push(negative ? -value : value);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

export interface SourceMapLike {
  sources: string[];
  mappings: string;
}

/** Bytes of `code` charged to each source path ('(unmapped)' for the rest). Lines are split on \n. */
export function bytesBySource(code: string, map: SourceMapLike): Map<string, number> {
  const out = new Map<string, number>();
  const add = (k: string, n: number): void => void out.set(k, (out.get(k) ?? 0) + n);
  const lines = code.split('\n');
  const mapLines = map.mappings.split(';');
  let source = 0;
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li] as string;
    const lineBytes = Buffer.byteLength(line) + (li < lines.length - 1 ? 1 : 0);
    const segs = (mapLines[li] ?? '').split(',').filter((s) => s !== '');
    let col = 0;
    const points: { col: number; src: number | null }[] = [];
    for (const s of segs) {
      const f = decodeSegment(s);
      col += f[0] ?? 0;
      if (f.length >= 4) {
        source += f[1] ?? 0;
        points.push({ col, src: source });
      } else points.push({ col, src: null });
    }
    if (points.length === 0) {
      add('(unmapped)', lineBytes);
      continue;
    }
    const first = points[0] as { col: number };
    if (first.col > 0) add('(unmapped)', Buffer.byteLength(line.slice(0, first.col)));
    for (let i = 0; i < points.length; i++) {
      const p = points[i] as { col: number; src: number | null };
      const end = i + 1 < points.length ? (points[i + 1] as { col: number }).col : line.length;
      const bytes = Buffer.byteLength(line.slice(p.col, end)) + (i + 1 === points.length && li < lines.length - 1 ? 1 : 0);
      add(p.src === null ? '(unmapped)' : (map.sources[p.src] ?? '(unknown)'), bytes);
    }
  }
  return out;
}

/** A source path grouped the way a reader thinks of it: a package, or a project folder. */
export function groupOf(source: string): string {
  const nm = source.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = source.slice(nm + 'node_modules/'.length).split('/');
    return (rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]) ?? source;
  }
  const clean = source.replace(/^(\.\.\/)+/, '').replace(/^\/?work\/main\//, '');
  const parts = clean.split('/');
  if (parts[0] === 'lib' || parts[0] === 'components') return parts.slice(0, 2).join('/');
  return parts.length > 1 ? parts.slice(0, -1).join('/') : clean;
}
