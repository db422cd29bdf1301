import { SlidingWindowStorage } from './sliding-window.storage';

const TTL = 60_000;
const LIMIT = 3;

describe(SlidingWindowStorage.name, () => {
  let storage: SlidingWindowStorage;
  const hit = (key = 'principal:a') => storage.increment(key, TTL, LIMIT, TTL);

  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
    storage = new SlidingWindowStorage();
  });

  afterEach(() => jest.useRealTimers());

  describe('increment', () => {
    it('should count hits up to the limit without blocking', async () => {
      expect((await hit()).totalHits).toBe(1);
      await hit();
      expect(await hit()).toEqual({ totalHits: 3, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
    });

    it('should block the hit above the limit for the block duration', async () => {
      for (let i = 0; i < LIMIT; i++) await hit();
      expect(await hit()).toMatchObject({ isBlocked: true, timeToBlockExpire: 60 });
      jest.advanceTimersByTime(TTL - 1);
      expect((await hit()).isBlocked).toBe(true);
      jest.advanceTimersByTime(1);
      expect(await hit()).toMatchObject({ isBlocked: false, totalHits: 1 });
    });

    it('should let hits leave the window one by one', async () => {
      await hit();
      jest.advanceTimersByTime(30_000);
      await hit();
      await hit();
      jest.advanceTimersByTime(30_000);
      expect(await hit()).toMatchObject({ isBlocked: false, totalHits: 3, timeToExpire: 30 });
    });

    it('should count each key on its own', async () => {
      for (let i = 0; i < LIMIT; i++) await hit('principal:a');
      expect((await hit('principal:b')).totalHits).toBe(1);
    });

    it('should keep counting right across compactions of a long log', async () => {
      const total = 5000;
      for (let i = 0; i < total; i++) {
        await storage.increment('busy', TTL, 1e9, TTL);
        jest.advanceTimersByTime(TTL / 1000);
      }
      expect((await storage.increment('busy', TTL, 1e9, TTL)).totalHits).toBe(1000);
    });
  });
});
