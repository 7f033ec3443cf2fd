// What a finding of the review says a skill can do, in the user's words (PRODUCT.md §6.1): one sentence
// per kind, for the pages and for the background's refusals alike.
import type { FindingKind } from '../types';
import { t, type MessageKey } from './index';

/** The sentence that says what a skill with a finding of this kind can do. */
export const KIND_WORDS = {
  'load-command': 'finding_load_command',
  hooks: 'finding_hooks',
  'tool-grant': 'finding_tool_grant',
  'unreadable-frontmatter': 'finding_unreadable_frontmatter',
  executable: 'finding_executable',
  'install-script': 'finding_install_script',
  'auto-run-file': 'finding_auto_run_file',
  'tool-metadata': 'finding_tool_metadata',
  'dot-file': 'finding_dot_file',
  'code-file': 'finding_code_file',
  'remote-code': 'finding_remote_code',
  persistence: 'finding_persistence',
  secrets: 'finding_secrets',
  'sends-data': 'finding_sends_data',
  privilege: 'finding_privilege',
  'hidden-text': 'finding_hidden_text',
  'hidden-in-image': 'finding_hidden_in_image',
  'chat-exfiltration': 'finding_chat_exfiltration',
  'connected-apps': 'finding_connected_apps',
  'assistant-memory': 'finding_assistant_memory',
  concealment: 'finding_concealment',
  'broad-trigger': 'finding_broad_trigger',
} as const satisfies Record<FindingKind, MessageKey>;

export function kindWords(kind: FindingKind): string {
  return t(KIND_WORDS[kind]);
}
