export * from './error-body';
export * from './validation-errors';
export * from './all-exceptions.filter';
export * from './too-many-requests';
export * from './error-codes';
export * from './coded-exception';
