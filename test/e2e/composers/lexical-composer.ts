// Perplexity's composer: Lexical in #ask-input[data-lexical-editor]; Enter sends,
// Shift+Enter is a new line, and a paste becomes a "paste.txt" attachment chip. `rich`
// mounts the rich-text plugin (one paragraph per line) instead of the plain-text one
// (one paragraph, a line break per line).
import { $getRoot, $getSelection, $isRangeSelection, COMMAND_PRIORITY_CRITICAL, KEY_ENTER_COMMAND, PASTE_COMMAND, createEditor, type LexicalEditor } from 'lexical';
import { registerPlainText } from '@lexical/plain-text';
import { HeadingNode, QuoteNode, registerRichText } from '@lexical/rich-text';
import { createEmptyHistoryState, registerHistory } from '@lexical/history';
import { installProbe, pasteAsAttachment, send } from './probe';

export function mountLexicalComposer(site: string, root: HTMLElement, opts: { rich: boolean }): LexicalEditor {
  const editor = createEditor({
    namespace: site,
    nodes: opts.rich ? [HeadingNode, QuoteNode] : [],
    onError: (error) => {
      throw error;
    },
  });
  const probe = installProbe(
    site,
    () =>
      editor.getEditorState().read(() =>
        opts.rich
          ? $getRoot()
              .getChildren()
              .map((block) => block.getTextContent())
              .join('\n')
          : $getRoot().getTextContent(),
      ),
    () =>
      editor.getEditorState().read(() => {
        const selection = $getSelection();
        const last = $getRoot().getLastDescendant();
        if (!$isRangeSelection(selection) || !selection.isCollapsed() || last === null) return false;
        return selection.anchor.key === last.getKey() && selection.anchor.offset === last.getTextContentSize();
      }),
    () => editor.getRootElement(),
  );
  editor.setRootElement(root);
  if (opts.rich) registerRichText(editor);
  else registerPlainText(editor);
  registerHistory(editor, createEmptyHistoryState(), 300);
  editor.registerCommand(
    KEY_ENTER_COMMAND,
    (event) => {
      if (event === null || event.shiftKey) return false;
      event.preventDefault();
      return send(probe);
    },
    COMMAND_PRIORITY_CRITICAL,
  );
  editor.registerCommand(
    PASTE_COMMAND,
    (event) => {
      const text = event instanceof ClipboardEvent ? (event.clipboardData?.getData('text/plain') ?? '') : '';
      if (!pasteAsAttachment(probe, text, 'paste.txt')) return false;
      event.preventDefault();
      return true;
    },
    COMMAND_PRIORITY_CRITICAL,
  );
  probe.ready = true;
  return editor;
}
