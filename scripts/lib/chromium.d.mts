export const DEFAULT_CHROMIUM: string;
export function chromiumPath(): string;
export const BROWSER_ARGS: string[];
export function extensionArgs(extensionDir: string): string[];
export function unpackedExtensionId(dir: string): string;
export function pinExtensions(profileDir: string, ids: string[]): void;
export function withholdSiteAccess(profileDir: string, id: string, granted?: string[]): void;
export function sandboxFor(uid?: number): { sandbox: boolean; args: string[]; note: string | null };
export function viewerArgs(extensionDir: string, uid?: number): string[];
