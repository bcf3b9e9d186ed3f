// A bounded memory of recently seen ids (response ids, item ids) and what is known of each.

interface RecentIds<T> {
  get(id: string): T | undefined;
  set(id: string, owner: T): void;
  delete(id: string): void;
}

/**
 * The most recent ids, at most `capacity`, in two generations: when the young one is half full it becomes
 * the old one and the previous old one is dropped. O(1) per call; evicting one key at a time from a Map
 * (`keys().next()` after many deletes) walks the deleted slots and cost ~50 µs a call at 50,000 entries.
 */
export function createRecentIds<T>(capacity: number): RecentIds<T> {
  const half = Math.max(1, Math.floor(capacity / 2));
  let young = new Map<string, T>();
  let old = new Map<string, T>();
  return {
    get: (id) => young.get(id) ?? old.get(id),
    set(id, owner) {
      if (young.size >= half) {
        old = young;
        young = new Map();
      }
      young.set(id, owner);
    },
    delete(id) {
      young.delete(id);
      old.delete(id);
    },
  };
}
