import type { HostileCase } from '../types';

export const ARCHIVE_CASES: HostileCase[] = [];
