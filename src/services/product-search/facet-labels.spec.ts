import { humanize, toFacets } from './facet-labels';

describe('toFacets', () => {
  it('should order by label, using the label function, the row label or the humanized value', () => {
    expect(
      toFacets([
        { _id: 'SPECIES', count: 2 },
        { _id: 'HEIRLOOM_CULTIVAR', count: 1 },
      ]),
    ).toEqual([
      { value: 'HEIRLOOM_CULTIVAR', label: 'Heirloom cultivar', count: 1 },
      { value: 'SPECIES', label: 'Species', count: 2 },
    ]);
    expect(
      toFacets([
        { _id: 'x', label: 'Zinnia', count: 1 },
        { _id: 'y', label: 'Aster', count: 3 },
      ])[0].label,
    ).toBe('Aster');
    expect(toFacets([{ _id: 'DE', count: 1 }], (code) => `country ${code}`)[0].label).toBe('country DE');
  });

  it('should order numeric values numerically', () => {
    const values = toFacets([
      { _id: '120', count: 1 },
      { _id: '-5', count: 1 },
      { _id: '30', count: 1 },
    ]);
    expect(values.map((facet) => facet.value)).toEqual(['-5', '30', '120']);
  });

  it('should handle no rows', () => {
    expect(toFacets([])).toEqual([]);
  });
});

describe('humanize', () => {
  it('should only rewrite constant-style values', () => {
    expect(humanize('HYBRID')).toBe('Hybrid');
    expect(humanize('Full sun')).toBe('Full sun');
  });
});
