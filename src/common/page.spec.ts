import { toPage } from './page';

describe(toPage.name, () => {
  it('should describe a middle page', () => {
    expect(toPage(['c', 'd'], 6, 1, 2)).toEqual({
      content: ['c', 'd'],
      totalElements: 6,
      totalPages: 3,
      size: 2,
      number: 1,
      numberOfElements: 2,
      first: false,
      last: false,
      empty: false,
    });
  });

  it('should describe the last page', () => {
    expect(toPage(['e'], 5, 2, 2)).toMatchObject({ first: false, last: true, numberOfElements: 1 });
  });

  it('should describe an empty result as one empty page', () => {
    expect(toPage([], 0, 0, 20)).toMatchObject({ totalPages: 0, first: true, last: true, empty: true });
  });
});
