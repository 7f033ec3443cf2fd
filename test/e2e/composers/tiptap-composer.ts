// A chat composer on Tiptap 3 (StarterKit: markdown-style input rules, lists, code
// blocks, history) where Enter sends and a long paste becomes a chip, as on Claude and
// Mistral. The site passes its own attributes and chip label.
import { Editor, Extension } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { installProbe, pasteAsAttachment, send } from './probe';
import { caretAtEndOf, proseMirrorText } from './pm-text';

export function mountTiptapComposer(site: string, place: HTMLElement, attributes: Record<string, string>, chipLabel: string): Editor {
  let editor: Editor | null = null;
  const probe = installProbe(
    site,
    () => (editor ? proseMirrorText(editor.state.doc) : ''),
    () => (editor ? caretAtEndOf(editor.state) : false),
    () => editor?.view.dom ?? null,
  );
  const SendOnEnter = Extension.create({
    name: 'sendOnEnter',
    priority: 1000,
    addKeyboardShortcuts() {
      return { Enter: () => send(probe) };
    },
  });
  editor = new Editor({
    element: place,
    extensions: [StarterKit, SendOnEnter],
    editorProps: {
      attributes,
      handlePaste: (_view, event) => pasteAsAttachment(probe, event.clipboardData?.getData('text/plain') ?? '', chipLabel),
    },
  });
  probe.ready = true;
  return editor;
}
