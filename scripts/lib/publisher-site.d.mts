export interface SkillSpec {
  name: string;
  description: string;
  body?: string;
  version?: string;
  license?: string;
  signed?: boolean;
  raw?: string;
}
export interface SiteSpec {
  seed?: Uint8Array;
  sign?: boolean;
  title?: string;
  skills: SkillSpec[];
  llmsTxt?: boolean;
  index?: boolean;
  clean?: boolean;
}
export interface IndexEntry {
  name: string;
  type: string;
  description: string;
  url: string;
  digest: string;
  sha256: string;
  signature?: string;
}
export function lfNormalize(bytes: Uint8Array): Uint8Array;
export function keyPair(seed?: Uint8Array): { secret: Uint8Array; publicKey: Uint8Array; publicKeyB64: string };
export function skillMarkdown(s: SkillSpec): string;
export function writePublisherSite(dir: string, spec: SiteSpec): { dir: string; keys: { secret: Uint8Array; publicKey: Uint8Array; publicKeyB64: string }; entries: IndexEntry[] };
export const DEMO_SKILLS: SkillSpec[];
