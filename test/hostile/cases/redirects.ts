import type { HostileCase } from '../types';

export const REDIRECT_URL_CASES: HostileCase[] = [];
