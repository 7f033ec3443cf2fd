// ChatGPT's composer: ProseMirror in div#prompt-textarea.ProseMirror, the hidden
// fallback textarea beside it, Enter sends, Shift+Enter starts a new paragraph, and a
// long paste becomes an attachment chip instead of text. With `maxChars` the editor cuts
// whatever goes past that many characters (a composer that drops text).
import 'prosemirror-view/style/prosemirror.css';
import { EditorState, Plugin } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { schema } from 'prosemirror-schema-basic';
import { history, undo, redo } from 'prosemirror-history';
import { keymap } from 'prosemirror-keymap';
import { baseKeymap, splitBlock } from 'prosemirror-commands';
import { installProbe, pasteAsAttachment, send } from './probe';
import { caretAtEndOf, proseMirrorText } from './pm-text';

function truncateTo(maxChars: number): Plugin {
  return new Plugin({
    appendTransaction: (_trs, _old, state) => {
      let seen = 0;
      let cut: number | null = null;
      state.doc.descendants((node, pos) => {
        if (cut !== null || !node.isText) return cut === null;
        const text = node.text ?? '';
        if (seen + text.length > maxChars) cut = pos + (maxChars - seen);
        seen += text.length;
        return false;
      });
      return cut === null ? null : state.tr.delete(cut, state.doc.content.size - 1);
    },
  });
}

export function mountProseMirrorComposer(site: string, place: HTMLElement, opts: { maxChars?: number } = {}): EditorView {
  let view: EditorView | null = null;
  const probe = installProbe(
    site,
    () => (view ? proseMirrorText(view.state.doc) : ''),
    () => (view ? caretAtEndOf(view.state) : false),
    () => view?.dom ?? null,
  );
  view = new EditorView(place, {
    state: EditorState.create({
      schema,
      plugins: [
        history(),
        keymap({ Enter: () => send(probe), 'Shift-Enter': splitBlock, 'Mod-z': undo, 'Mod-y': redo, 'Mod-Shift-z': redo }),
        keymap(baseKeymap),
        ...(opts.maxChars === undefined ? [] : [truncateTo(opts.maxChars)]),
      ],
    }),
    attributes: { id: 'prompt-textarea', class: 'ProseMirror', contenteditable: 'true', translate: 'no', 'data-virtualkeyboard': 'true' },
    handlePaste: (_view, event) => pasteAsAttachment(probe, event.clipboardData?.getData('text/plain') ?? '', 'Pasted text'),
  });
  probe.ready = true;
  return view;
}
