import type { HostileCase } from '../types';

export const FAULT_CASES: HostileCase[] = [];
