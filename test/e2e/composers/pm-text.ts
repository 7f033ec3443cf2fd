// A ProseMirror document as the text a chat site sends: one line per textblock, a hard
// break as a line break, in document order.
import type { Node as PMNode } from 'prosemirror-model';
import { Selection, type EditorState } from 'prosemirror-state';

export function proseMirrorText(doc: PMNode): string {
  return doc.textBetween(0, doc.content.size, '\n', (leaf) => (leaf.type.name === 'hard_break' || leaf.type.name === 'hardBreak' ? '\n' : ''));
}

/** The selection is a caret at the end of the document's last textblock. */
export function caretAtEndOf(state: EditorState): boolean {
  return state.selection.empty && state.selection.from === Selection.atEnd(state.doc).from;
}
