// A site in an options table: always a link to its view in the popup (in a new tab), in every
// table alike. The address wraps only at its dots and slashes (Origin.tsx).
import { Origin } from '../shared/Origin';

export function OriginLink({ origin, popupUrl }: { origin: string; popupUrl: string }) {
  return (
    <a href={`${popupUrl}?origin=${encodeURIComponent(origin)}`} target="_blank" rel="noopener noreferrer">
      <Origin origin={origin} />
    </a>
  );
}
