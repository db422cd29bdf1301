import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { Api } from './api';
import { Lang, translate, WordKey } from './i18n';

export interface ConsoleContext {
  api: Api;
  lang: Lang;
}

export const Console = createContext<ConsoleContext | null>(null);

/** The API and the language of the console, for any component below `App`. */
export function useConsole(): ConsoleContext & {
  t: (key: WordKey, values?: Record<string, string | number>) => string;
} {
  const context = useContext(Console);
  if (!context) throw new Error('useConsole outside the console');
  return { ...context, t: (key, values) => translate(context.lang, key, values) };
}
