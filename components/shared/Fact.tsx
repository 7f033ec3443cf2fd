// One term of a facts list (`<dl class="facts">`) and its value; the other props are the value's attributes.
import type { ComponentChildren } from 'preact';

export function Fact({ term, children, ...dd }: { term: string; children: ComponentChildren; class?: string; [data: `data-${string}`]: string | undefined }) {
  return (
    <>
      <dt>{term}</dt>
      <dd {...dd}>{children}</dd>
    </>
  );
}
