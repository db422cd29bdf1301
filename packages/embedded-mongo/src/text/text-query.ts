import { MongoError } from '../errors';
import { isDoc, type Doc } from '../types';
import { findLanguage, stripDiacritics, tokenize, type Language, type TokenOptions } from './analyzer';
import type { IndexedText, TextIndex } from './text-index';

/** A parsed `$text` operand. */
export interface TextQuery {
  language: Language;
  options: TokenOptions;
  /** Terms looked up in the index (lower case, no diacritics); they make the score. */
  boundTerms: Set<string>;
  /** Terms as the matcher checks them (case/diacritic sensitive when asked). */
  positiveTerms: Set<string>;
  negatedTerms: Set<string>;
  phrases: string[];
  negatedPhrases: string[];
}

const TEXT_OPTIONS = new Set(['$search', '$language', '$caseSensitive', '$diacriticSensitive']);

interface SearchParts {
  positive: string[];
  negative: string[];
  phrases: string[];
  negatedPhrases: string[];
}

/**
 * Splits `$search` as MongoDB's query parser does: words, `"phrases"`, and `-` negating the word or
 * phrase it directly precedes (a negation lasts until the next white space; words in phrases are
 * never negated one by one).
 */
function splitSearch(search: string): SearchParts {
  const parts: SearchParts = { positive: [], negative: [], phrases: [], negatedPhrases: [] };
  let inNegation = false;
  let inPhrase = false;
  let phraseStart = 0;
  let afterSpace = true;
  let i = 0;
  while (i < search.length) {
    const char = search[i];
    if (/\s/.test(char)) {
      afterSpace = true;
      i++;
      continue;
    }
    if (char === '-') {
      if (!inPhrase && afterSpace) inNegation = true;
    } else if (char === '"') {
      if (inPhrase) (inNegation ? parts.negatedPhrases : parts.phrases).push(search.slice(phraseStart, i));
      else {
        if (inNegation && afterSpace) inNegation = false;
        phraseStart = i + 1;
      }
      inPhrase = !inPhrase;
    } else {
      let end = i;
      while (end < search.length && !/[\s"-]/.test(search[end])) end++;
      // Words of a negated phrase are neither terms nor do they end the negation.
      if (!(inPhrase && inNegation)) {
        if (inNegation && afterSpace) inNegation = false;
        (inNegation ? parts.negative : parts.positive).push(search.slice(i, end));
      }
      afterSpace = false;
      i = end;
      continue;
    }
    afterSpace = false;
    i++;
  }
  return parts;
}

function checkFlag(operand: Doc, name: string): boolean {
  const value = operand[name];
  if (value !== undefined && typeof value !== 'boolean') {
    throw new MongoError('BadValue', `${name} requires a boolean value`);
  }
  return value === true;
}

/** Parses `{$search, $language, $caseSensitive, $diacriticSensitive}` against the collection's text index. */
export function parseTextQuery(operand: unknown, index: TextIndex): TextQuery {
  if (!isDoc(operand)) throw new MongoError('BadValue', '$text expects an object');
  const unknown = Object.keys(operand).find((key) => !TEXT_OPTIONS.has(key));
  if (unknown) throw new MongoError('BadValue', `Unexpected field name in $text: ${unknown}`);
  if (typeof operand.$search !== 'string') throw new MongoError('BadValue', '$search required, and must be a string');
  const languageName = operand.$language ?? index.spec.default_language;
  const language = findLanguage(languageName);
  if (!language)
    throw new MongoError('BadValue', `unsupported language: "${String(languageName)}" for text index version 3`);
  const options = {
    caseSensitive: checkFlag(operand, '$caseSensitive'),
    diacriticSensitive: checkFlag(operand, '$diacriticSensitive'),
  };
  const parts = splitSearch(operand.$search);
  const terms = (words: string[], tokenOptions: TokenOptions): Set<string> =>
    new Set(words.flatMap((word) => tokenize(word, language, tokenOptions)));
  return {
    language,
    options,
    boundTerms: terms(parts.positive, {}),
    positiveTerms: terms(parts.positive, options),
    negatedTerms: terms(parts.negative, options),
    phrases: parts.phrases,
    negatedPhrases: parts.negatedPhrases,
  };
}

function containsPhrase(indexed: IndexedText, phrase: string, options: TokenOptions): boolean {
  const fold = (text: string): string => {
    const cased = options.caseSensitive ? text : text.toLowerCase();
    return options.diacriticSensitive ? cased : stripDiacritics(cased);
  };
  return fold(indexed.text).includes(fold(phrase));
}

/** Whether candidates need checking beyond holding a bound term (negations, phrases, case or diacritics). */
function needsMatcher(query: TextQuery): boolean {
  const sensitive = query.options.caseSensitive || query.options.diacriticSensitive;
  return sensitive || query.negatedTerms.size > 0 || query.phrases.length > 0 || query.negatedPhrases.length > 0;
}

/**
 * MongoDB's text matcher on a candidate (which holds some bound term): no negated term or phrase, every
 * phrase present, and, when case or diacritic sensitive, one positive term in its exact form.
 */
export function textMatches(query: TextQuery, index: TextIndex, doc: Doc): boolean {
  if (!needsMatcher(query)) return true;
  const texts = index.textsOf(doc);
  const sensitive = query.options.caseSensitive || query.options.diacriticSensitive;
  const needsTerms = query.negatedTerms.size > 0 || sensitive;
  const docTerms = new Set(
    needsTerms ? texts.flatMap((indexed) => tokenize(indexed.text, indexed.language, query.options)) : [],
  );
  if ([...query.negatedTerms].some((term) => docTerms.has(term))) return false;
  if (sensitive && query.positiveTerms.size > 0 && ![...query.positiveTerms].some((term) => docTerms.has(term))) {
    return false;
  }
  const hasPhrase = (phrase: string): boolean =>
    texts.some((indexed) => containsPhrase(indexed, phrase, query.options));
  return query.phrases.every(hasPhrase) && !query.negatedPhrases.some(hasPhrase);
}
