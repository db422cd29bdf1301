import { monthLabels, monthlyChart, startOfMonthUtc } from './monthly-chart';

describe('monthly chart', () => {
  const now = new Date('2026-03-15T10:00:00Z');

  it('should label the last months oldest first, across a year boundary', () => {
    expect(monthLabels(now, 5)).toEqual(['2025-11', '2025-12', '2026-01', '2026-02', '2026-03']);
  });

  it('should start the window on the first instant of the oldest month (UTC)', () => {
    expect(startOfMonthUtc(now, 11).toISOString()).toBe('2025-04-01T00:00:00.000Z');
  });

  it('should fill months without figures with 0', () => {
    const chart = monthlyChart('Registered', ['2026-01', '2026-02'], new Map([['2026-02', 4]]));
    expect(chart).toEqual({ labels: ['2026-01', '2026-02'], datasets: [{ label: 'Registered', data: [0, 4] }] });
  });
});
