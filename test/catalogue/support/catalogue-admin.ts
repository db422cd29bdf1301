import request from 'supertest';
import { Role } from '../../../src/common/principal';
import { TestApp } from '../../support/test-app';

export const ADMIN_BEAN = 'catalogueAdminServiceImpl';

export interface CategoryBody {
  id: string;
  name: string;
  parentId: string | null;
  position: number;
}
export interface CategoryNodeBody extends CategoryBody {
  children: CategoryNodeBody[];
}
export interface AttributeBody {
  id: string;
  code: string;
  name: string;
  type: 'OPTION' | 'VALUE';
  unit: string | null;
}
export interface SkuBody {
  id: string;
  productId: string;
  code: string;
  name: string;
  attributes: { attributeId: string; values: string[] }[];
  weightGrams: number | null;
}
export interface AdminProductBody {
  id: string;
  name: string;
  description: string;
  categories: string[];
  attributes: { attributeId: string; values: string[] }[];
  published: boolean;
  slug: string | null;
  translations: { lang: string; name: string; description: string }[];
  skus: SkuBody[];
}

/** A call of the catalogue management bean, as the default ADMIN unless another token is given. */
export function adminCall(t: TestApp, fn: string, args: unknown[], token = t.tokenFor(Role.ADMIN)): request.Test {
  return t.callBean(ADMIN_BEAN, fn, args, { token });
}

/** The DESIGN §3 error body, without internals. */
export function expectErrorShape(body: Record<string, unknown>, status: number): void {
  expect(body).toMatchObject({ status, error: expect.any(String), message: expect.any(String) });
  expect(body).toHaveProperty('path');
  expect(body).toHaveProperty('timestamp');
  expect(body).toHaveProperty('requestId');
  expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
}
