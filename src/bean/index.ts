export { Bean } from './bean.decorator';
export type { BeanMeta } from './bean.decorator';
export { Exposed } from './exposed.decorator';
export type { ExposedOptions } from './exposed.decorator';
export { MapOf } from './param-types';
export type { MapOfParamType, ParamType, ScalarParamType } from './param-types';
