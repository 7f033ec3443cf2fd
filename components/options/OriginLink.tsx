// A site in an options table: always a link to its view in the popup (in a new tab), in every
// table alike.
export function OriginLink({ origin, popupUrl }: { origin: string; popupUrl: string }) {
  return (
    <a href={`${popupUrl}?origin=${encodeURIComponent(origin)}`} target="_blank" rel="noopener noreferrer" class="break">
      {origin}
    </a>
  );
}
