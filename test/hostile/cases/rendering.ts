import type { HostileCase } from '../types';

export const RENDERING_CASES: HostileCase[] = [];
