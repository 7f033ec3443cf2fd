// The organisation's policy (docs/policies.md) as pages read it: the popup's Approve button and
// the options page's managed settings. Null while unknown or when it cannot be asked for; the
// background enforces the policy either way, this only explains it.
import { createContext } from 'preact';
import type { PolicySummary } from '../../lib/messages';

export const PolicyContext = createContext<PolicySummary | null>(null);
