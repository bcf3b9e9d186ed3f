// What the dashboard says about an error the gateway answered. The server writes English sentences with a
// machine `code` (src/gateway-error-codes.ts); in another language the code picks a translated sentence
// from the catalogue's `errors` section, and a code the catalogue does not know keeps the server's English.
// In English the server's own sentence is kept: it is the most precise (it names the value and the rule).
import { ApiError } from '../api/api-client.ts';
import { currentLanguage, i18n } from './i18n.ts';

export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const key = error.code ? `errors.${error.code}` : `errors.status${error.status >= 500 ? 500 : error.status}`;
    if (currentLanguage() !== 'en' && i18n.exists(key)) return i18n.t(key, { param: error.param ?? '' });
    return error.message;
  }
  if (error instanceof TypeError) return i18n.t('common.unreachableCheck');
  return error instanceof Error ? error.message : i18n.t('common.unreachableCheck');
}
