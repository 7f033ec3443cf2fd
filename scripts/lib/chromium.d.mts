export const DEFAULT_CHROMIUM: string;
export function chromiumPath(): string;
export function extensionArgs(extensionDir: string): string[];
