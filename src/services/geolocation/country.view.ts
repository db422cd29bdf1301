import { CountryRecord } from './country-dataset';

/** A country as clients see it, named in the request language. */
export interface CountryView {
  id: string;
  code: string;
  alpha3: string;
  numeric: string;
  name: string;
}

export function toCountryView(record: CountryRecord, lang: string): CountryView {
  return {
    id: record.code,
    code: record.code,
    alpha3: record.alpha3,
    numeric: record.numeric,
    name: record.names[lang],
  };
}
