import { fingerprintGroups } from './format';

/** A key fingerprint in groups of four, easy to compare side by side; copies without spaces. */
export function Fingerprint({ value, label }: { value: string; label?: string }) {
  const { prefix, groups } = fingerprintGroups(value);
  return (
    <code class="fp" aria-label={label ? `${label}: ${value}` : value} data-fingerprint={value}>
      <span class="fp-prefix">{prefix}</span>
      {groups.map((g, i) => (
        <span class="fp-group" key={i}>
          {g}
        </span>
      ))}
    </code>
  );
}
