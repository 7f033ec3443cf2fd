// The trust store, opened once per worker. After a failed open (a blocked upgrade, a storage
// error) the next call tries again instead of keeping the failure.
import type { TrustStore } from '../store/store-api';

export function storeOnce(open: () => Promise<TrustStore>): () => Promise<TrustStore> {
  let store: TrustStore | null = null;
  let opening: Promise<TrustStore> | null = null;
  return () => {
    if (store) return Promise.resolve(store);
    opening ??= open().then(
      (s) => {
        store = s;
        return s;
      },
      (e: unknown) => {
        opening = null;
        throw e;
      },
    );
    return opening;
  };
}
