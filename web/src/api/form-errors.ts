// Puts a server error next to the field it names ("param": "email"), or returns it for a notification.
import { ApiError } from './api-client.ts';
import { errorText } from '../i18n/error-text.ts';
import { i18n } from '../i18n/i18n.ts';

interface FieldErrorTarget {
  setFieldError: (field: string, message: string) => void;
}

/** Returns the message to show as a notification when the error names no field of this form. */
export function applyServerError(error: unknown, form: FieldErrorTarget, fields: readonly string[]): string | null {
  if (error instanceof ApiError) {
    const field = error.param?.split('.')[0] ?? null;
    if (field && fields.includes(field)) {
      form.setFieldError(field, errorText(error));
      return null;
    }
    return errorText(error);
  }
  return i18n.t('common.unreachableCheck');
}
