import type { HostileCase } from '../types';

export const CRYPTO_TRUST_CASES: HostileCase[] = [];
