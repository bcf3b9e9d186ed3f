// The dashboard's languages (issue 31): English, bundled, and Simplified Chinese, loaded when chosen. The
// choice is remembered in localStorage; without one, the browser's language decides. Dates and money are
// formatted for the language in force (components/format.ts reads `currentLanguage()`).
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en.ts';

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'zh-CN', label: '简体中文' },
] as const;
type LanguageCode = (typeof LANGUAGES)[number]['code'];

const STORAGE_KEY = 'gateway.language';

const loaders: Record<LanguageCode, () => Promise<Record<string, unknown>>> = {
  en: async () => en,
  'zh-CN': async () => (await import('./zh-CN.ts')).zhCN,
};

function storedLanguage(): LanguageCode | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return LANGUAGES.some((language) => language.code === value) ? (value as LanguageCode) : null;
  } catch {
    return null;
  }
}

/** The remembered choice, else the browser's first language we have (any Chinese reads Simplified). */
function initialLanguage(): LanguageCode {
  const stored = storedLanguage();
  if (stored) return stored;
  const preferred = typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language];
  return preferred.some((tag) => tag.toLowerCase().startsWith('zh')) ? 'zh-CN' : 'en';
}

void i18next.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: 'en',
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
  // A key missing from English too shows as ⟦key⟧, which the browser tests look for on every page.
  parseMissingKeyHandler: (key: string, defaultValue?: string) => defaultValue ?? `⟦${key}⟧`,
});

export const i18n = i18next;

export const currentLanguage = (): LanguageCode => (i18next.language === 'zh-CN' ? 'zh-CN' : 'en');

/** Loads the language's strings if needed, switches to it, and remembers it when `remember` is set. */
export async function switchLanguage(code: LanguageCode, remember = true): Promise<void> {
  if (!i18next.hasResourceBundle(code, 'translation')) i18next.addResourceBundle(code, 'translation', await loaders[code]());
  await i18next.changeLanguage(code);
  if (typeof document !== 'undefined') document.documentElement.lang = code;
  if (remember) {
    try {
      localStorage.setItem(STORAGE_KEY, code);
    } catch {
      // Storage refused (a private window): the choice lasts for this page.
    }
  }
}

/** Called once before the first render: the app starts in the remembered or the browser's language. */
export async function startLanguage(): Promise<void> {
  const code = initialLanguage();
  if (code !== 'en') await switchLanguage(code, false);
  else if (typeof document !== 'undefined') document.documentElement.lang = 'en';
}
