import type { HostileCase } from '../types';

export const MESSAGING_CASES: HostileCase[] = [];
