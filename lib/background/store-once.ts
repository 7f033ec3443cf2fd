// The trust store, opened once per worker. After a failed open (a blocked upgrade, a storage
// error) the next call tries again instead of keeping the failure.
import type { TrustStore } from '../store/store-api';

export function storeOnce(open: () => Promise<TrustStore>): () => Promise<TrustStore> {
  let opening: Promise<TrustStore> | null = null;
  return () => {
    opening ??= open().catch((e: unknown) => {
      opening = null;
      throw e;
    });
    return opening;
  };
}
