// An origin as every page shows it: it may wrap only after a dot or a slash,
// never inside its host's labels or its port ("127.0.0.1:33941" keeps ":33941" with the last
// label), and the whole address is in its title for when the box shortens it.
import { Fragment } from 'preact';

/**
 * The origin in pieces a line may end after: the scheme with its "//", each host label with its
 * dot, and the last label together with ":port".
 */
export function originPieces(origin: string): string[] {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)(.*)$/i.exec(origin);
  const scheme = m?.[1] ?? '';
  const rest = m?.[2] ?? origin;
  const [hostPart = '', ...path] = rest.split('/');
  // An IPv6 literal ([::1]:8080) is one piece: its colons are no place for a break.
  const labels = hostPart.startsWith('[') ? [hostPart] : hostPart.split('.');
  const hostPieces = labels.map((label, i) => (i < labels.length - 1 ? `${label}.` : label));
  return [...(scheme ? [scheme] : []), ...hostPieces, ...path.map((p) => `/${p}`)];
}

export function Origin({ origin }: { origin: string }) {
  return (
    <span class="origin-text" title={origin} data-origin-text={origin}>
      {originPieces(origin).map((piece, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          <span class="origin-piece">{piece}</span>
        </Fragment>
      ))}
    </span>
  );
}
