/** Developers held back (Sandbox.hold), each with the promise that settles when the last hold on it is released. */
export interface Holds {
  hold(developerId: string): () => void;
  whenFree(developerId: string): Promise<void>;
  isHeld(developerId: string): boolean;
  /** Resolves once every hold now taken is released. */
  allReleased(): Promise<void>;
}

/** @example const holds = createHolds(); const release = holds.hold(id); try { ... } finally { release(); } */
export function createHolds(): Holds {
  const held = new Map<string, Promise<void>>();
  return {
    hold(developerId) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const previous = held.get(developerId);
      const mine = (previous ?? Promise.resolve()).then(() => released);
      held.set(developerId, mine);
      return () => {
        release();
        if (held.get(developerId) === mine) held.delete(developerId);
      };
    },
    whenFree: (developerId) => held.get(developerId) ?? Promise.resolve(),
    isHeld: (developerId) => held.has(developerId),
    allReleased: async () => {
      await Promise.all([...held.values()]);
    },
  };
}
