import { upstreamDestination } from './relay-broker';
import { userKey } from './local-routes';

describe(upstreamDestination.name, () => {
  it('should give a RabbitMQ topic name of one word after the prefix', () => {
    expect(upstreamDestination('/topic/order/1')).toMatch(/^\/topic\/ccb\.[0-9a-f]{40}$/);
  });

  it('should keep look-alike names and user destinations apart', () => {
    const names = [
      '/topic/order/1',
      '/topic/order.1',
      '/topic/order%2F1',
      '/queue/order/1',
      userKey('u1', '/topic/order/1'),
    ];
    expect(new Set(names.map((name) => upstreamDestination(name))).size).toBe(names.length);
  });

  it('should be stable across instances', () => {
    expect(upstreamDestination('/topic/jobs')).toBe(upstreamDestination('/topic/jobs'));
  });

  it('should keep namespaces apart', () => {
    expect(upstreamDestination('/topic/jobs', 'shop-a')).toMatch(/^\/topic\/shop-a\.[0-9a-f]{40}$/);
    expect(upstreamDestination('/topic/jobs', 'shop-a')).not.toBe(upstreamDestination('/topic/jobs', 'shop-b'));
  });
});
