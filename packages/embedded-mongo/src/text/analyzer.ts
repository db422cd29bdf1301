import { newStemmer } from 'snowball-stemmers';
import { STOP_WORDS } from './stop-words';

/** A text search language: MongoDB's stop words and Snowball stemmer for it ("none": neither). */
export interface Language {
  name: string;
  stopWords: ReadonlySet<string>;
  stem(word: string): string;
}

const NO_STOP_WORDS: ReadonlySet<string> = new Set();

/** Stems seen recently are kept (bounded): indexing repeats the same words over and over. */
const STEM_CACHE_SIZE = 50_000;

function snowball(name: 'english' | 'german'): Language {
  const stemmer = newStemmer(name);
  const cache = new Map<string, string>();
  const stem = (word: string): string => {
    let stemmed = cache.get(word);
    if (stemmed === undefined) {
      if (cache.size >= STEM_CACHE_SIZE) cache.clear();
      stemmed = stemmer.stem(word);
      cache.set(word, stemmed);
    }
    return stemmed;
  };
  return { name, stopWords: STOP_WORDS[name], stem };
}

const LANGUAGES = new Map<string, Language>();
for (const language of [
  snowball('english'),
  snowball('german'),
  { name: 'none', stopWords: NO_STOP_WORDS, stem: (w: string) => w },
]) {
  LANGUAGES.set(language.name, language);
}
// MongoDB also accepts the ISO 639-1 codes of its languages.
LANGUAGES.set('en', LANGUAGES.get('english') as Language);
LANGUAGES.set('de', LANGUAGES.get('german') as Language);

/** The language named, or undefined when it is not supported here. */
export function findLanguage(name: unknown): Language | undefined {
  return typeof name === 'string' ? LANGUAGES.get(name.toLowerCase()) : undefined;
}

/**
 * Delimiters as MongoDB's Unicode tokenizer defines them (white space, dashes, hyphens, quotation marks,
 * terminal punctuation, pattern syntax); the apostrophe is part of a word in English only.
 */
const DELIMITERS =
  '\\p{White_Space}\\p{Dash}\\p{Quotation_Mark}\\p{Terminal_Punctuation}\\p{Pattern_Syntax}' +
  '\\p{Sentence_Terminal}\\u00AD\\u2010\\u2011\\u30FB\\uFF65';
const SPLIT_ENGLISH = new RegExp(`(?:(?!')[${DELIMITERS}])+`, 'u');
const SPLIT_OTHER = new RegExp(`[${DELIMITERS}]+`, 'u');

export function stripDiacritics(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .normalize('NFC');
}

export interface TokenOptions {
  caseSensitive?: boolean;
  diacriticSensitive?: boolean;
}

/**
 * The terms of a text, as MongoDB's tokenizer yields them: split on delimiters, stop words (checked lower
 * case, with diacritics) dropped, stemmed, then lower cased and stripped of diacritics unless asked not to.
 */
export function tokenize(text: string, language: Language, options: TokenOptions = {}): string[] {
  const words = text.split(language.name === 'english' ? SPLIT_ENGLISH : SPLIT_OTHER);
  const terms: string[] = [];
  for (const word of words) {
    if (word === '') continue;
    const lower = word.toLowerCase();
    if (language.stopWords.has(lower)) continue;
    const stemmed = language.stem(options.caseSensitive ? word : lower);
    terms.push(options.diacriticSensitive ? stemmed : stripDiacritics(stemmed));
  }
  return terms;
}
