export const DEFAULT_CHROMIUM: string;
export function chromiumPath(): string;
export const BROWSER_ARGS: string[];
export function extensionArgs(extensionDir: string): string[];
