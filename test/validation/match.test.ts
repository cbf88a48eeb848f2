// A concrete method and path find their operation and path parameters, or say why they find none.
import { describe, expect, it } from 'vitest';
import { matchOperation, operationsOf, type Variant } from '../../packages/contract/src/validation/index.js';

describe('matchOperation', () => {
  it('finds Variant B retrievePayment with its decoded path parameter', () => {
    const match = matchOperation('b', 'GET', '/merchant/v1/payments/pay_123');
    expect(match).toMatchObject({
      kind: 'operation',
      operation: { operationId: 'retrievePayment' },
      params: { paymentId: 'pay_123' },
    });
    expect(matchOperation('b', 'get', '/merchant/v1/payments/pay%5F1?x=1')).toMatchObject({
      params: { paymentId: 'pay_1' },
    });
  });

  it('finds Variant A confirm, which Variant B does not have', () => {
    expect(matchOperation('a', 'POST', '/payments/pay_1/confirm')).toMatchObject({
      kind: 'operation',
      operation: { operationId: 'confirmPayment' },
      params: { id: 'pay_1' },
    });
    expect(matchOperation('b', 'POST', '/merchant/v1/payments/pay_1/confirm')).toEqual({ kind: 'not-found' });
  });

  it('tells a path with other methods (405) from an unknown path (404)', () => {
    expect(matchOperation('b', 'DELETE', '/merchant/v1/payments')).toEqual({
      kind: 'method-not-allowed',
      allowed: ['GET', 'POST'],
    });
    expect(matchOperation('a', 'GET', '/payments/pay_1/cancel')).toEqual({
      kind: 'method-not-allowed',
      allowed: ['POST'],
    });
    for (const path of [
      '/merchant/v1/payments/',
      '/merchant/v1/payments//cancel',
      '/payments',
      '/merchant/v1/payments/%E0%A4%A',
    ]) {
      expect(matchOperation('b', 'GET', path), path).toEqual({ kind: 'not-found' });
    }
  });

  it.each(['a', 'b'] as Variant[])('finds every operation of variant %s from its own template filled in', (variant) => {
    for (const operation of operationsOf(variant)) {
      const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => `${name}_value`);
      const match = matchOperation(variant, operation.method, path);
      expect(match.kind === 'operation' && match.operation, `${operation.method} ${path}`).toBe(operation);
    }
  });
});
