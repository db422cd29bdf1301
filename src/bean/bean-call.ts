import { BadRequestException } from '@nestjs/common';
import { FieldProblem } from '../common/errors/error-body';
import { isPlainRecord } from '../common/plain-object';
import { BeanCall } from './bean-invoker';

export const BEAN_SCOPES: readonly string[] = ['PROTOTYPE', 'SINGLETON'];

/**
 * Validates a call envelope `{beanId, scope?, functionName, args}` (REST body or STOMP BeanRequestMessage).
 * @throws BadRequestException listing every bad field
 */
export function parseBeanCall(envelope: unknown): BeanCall {
  if (!isPlainRecord(envelope)) throw new BadRequestException('The call envelope must be a JSON object');
  const { beanId, functionName, args, scope } = envelope;
  const problems: FieldProblem[] = [];
  if (typeof beanId !== 'string' || beanId === '')
    problems.push({ field: 'beanId', message: 'must be a non-empty string' });
  if (typeof functionName !== 'string' || functionName === '')
    problems.push({ field: 'functionName', message: 'must be a non-empty string' });
  if (!Array.isArray(args)) problems.push({ field: 'args', message: 'must be an array (empty for no arguments)' });
  if (scope !== undefined && !(typeof scope === 'string' && BEAN_SCOPES.includes(scope))) {
    problems.push({ field: 'scope', message: `must be one of ${BEAN_SCOPES.join(', ')}` });
  }
  if (problems.length > 0) throw new BadRequestException({ message: 'Invalid call envelope', details: problems });
  return { beanId, functionName, args, scope } as BeanCall;
}
