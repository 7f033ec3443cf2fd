// The verified text of a skill for the details view, and the approved text when it differs
// (for the diff): asked for again when the skill's bytes change.
import { useState } from 'preact/hooks';
import { useLive } from '../shared/use-list';
import type { ArchiveFileChange, SkillText } from '../../lib/messages';
import { errorText } from '../shared/format';
import type { PopupEnv } from './env';

/** `files`: for an archive, what changed in its files since the approval (null: nothing to compare). */
export type TextState = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; current: SkillText | null; approved: SkillText | null; files: ArchiveFileChange[] | null };

/** `url` null: the skill has no usable URL, so there is no text to ask for. A new `contentKey` (the digests) reloads it. */
export function useSkillText(env: PopupEnv, origin: string, url: string | null, contentKey: string | undefined): TextState {
  const [text, setText] = useState<TextState>({ phase: 'loading' });
  useLive([env, origin, url, contentKey], (live) => {
    if (!url) {
      setText({ phase: 'ready', current: null, approved: null, files: null });
      return;
    }
    setText({ phase: 'loading' });
    env.client
      .skillText(origin, url)
      .then((res) => live() && setText({ phase: 'ready', current: res.current, approved: res.approved, files: res.files ?? null }))
      .catch((err: unknown) => live() && setText({ phase: 'error', message: errorText(err) }));
  });
  return text;
}
