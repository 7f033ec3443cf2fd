import type { HostileCase } from '../types';

export const CONTENT_CASES: HostileCase[] = [];
