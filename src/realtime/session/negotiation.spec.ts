import { bearerToken, negotiateHeartbeats, negotiateVersion } from './negotiation';

describe('negotiation', () => {
  describe(negotiateVersion.name, () => {
    it.each([
      [undefined, '1.0'],
      ['1.1', '1.1'],
      ['1.0,1.1,1.2', '1.2'],
      [' 1.1 , 1.0 ', '1.1'],
      ['2.0', null],
    ])('should choose %j → %j', (offered, chosen) => {
      expect(negotiateVersion(offered)).toBe(chosen);
    });
  });

  describe(negotiateHeartbeats.name, () => {
    const server = [10_000, 10_000] as const;

    it('should run each direction at the slower side', () => {
      expect(negotiateHeartbeats('20000,5000', server, '1.2')).toEqual({ sendEvery: 10_000, expectEvery: 20_000 });
    });

    it('should turn a direction off when either side says 0', () => {
      expect(negotiateHeartbeats('0,5000', server, '1.2')).toEqual({ sendEvery: 10_000, expectEvery: 0 });
      expect(negotiateHeartbeats('5000,5000', [0, 10_000], '1.1')).toEqual({ sendEvery: 0, expectEvery: 10_000 });
    });

    it('should have none in 1.0 or without the header', () => {
      expect(negotiateHeartbeats('5000,5000', server, '1.0')).toEqual({ sendEvery: 0, expectEvery: 0 });
      expect(negotiateHeartbeats(undefined, server, '1.2')).toEqual({ sendEvery: 0, expectEvery: 0 });
    });

    it('should refuse a malformed header', () => {
      expect(negotiateHeartbeats('often', server, '1.2')).toBeNull();
    });
  });

  describe(bearerToken.name, () => {
    const headers = (entries: Record<string, string>) =>
      Object.assign(Object.create(null) as Record<string, string>, entries);

    it('should read either spelling of the header and any case of the scheme', () => {
      expect(bearerToken(headers({ Authorization: 'Bearer abc' }))).toBe('abc');
      expect(bearerToken(headers({ authorization: 'bearer  abc ' }))).toBe('abc');
    });

    it('should tell a missing header from a non-bearer one', () => {
      expect(bearerToken(headers({ passcode: 'abc' }))).toBeUndefined();
      expect(bearerToken(headers({ Authorization: 'Basic abc' }))).toBeNull();
    });
  });
});
