/** A page of results in the Spring Data shape clients expect. */
export interface Page<T> {
  content: T[];
  totalElements: number;
  totalPages: number;
  size: number;
  number: number;
  numberOfElements: number;
  first: boolean;
  last: boolean;
  empty: boolean;
}

/**
 * Builds a Spring-shaped page.
 * @param page 0-based page number
 * @param size requested page size
 * @example return toPage(jobs, total, 0, 20);
 */
export function toPage<T>(content: T[], totalElements: number, page: number, size: number): Page<T> {
  const totalPages = size > 0 ? Math.ceil(totalElements / size) : 1;
  return {
    content,
    totalElements,
    totalPages,
    size,
    number: page,
    numberOfElements: content.length,
    first: page === 0,
    last: page + 1 >= totalPages,
    empty: content.length === 0,
  };
}
