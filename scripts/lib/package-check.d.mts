export type ZipFiles = Record<string, Uint8Array>;
export interface LintMessage {
  _type?: string;
  code: string;
  message?: string;
  file?: string;
  line?: number;
  column?: number;
}
export function readZip(bytes: Uint8Array): ZipFiles;
export function manifestReferences(m: Record<string, unknown>): string[];
export function fileReferences(path: string, text: string): string[];
export const TEST_HOOK_NAMES: string[];
export function testHooksIn(files: ZipFiles): string[];
export function checkExtensionZip(files: ZipFiles, browser: 'chrome' | 'firefox'): string[];
export function checkSourcesZip(files: ZipFiles): string[];
export function classifyLint(messages: LintMessage[], readSource: (file: string) => string | null): { ours: LintMessage[]; library: (LintMessage & { library: string })[] };
