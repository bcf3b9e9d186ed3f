import { notifications } from '@mantine/notifications';
import { errorText } from '../../i18n/error-text.ts';

/**
 * Runs an admin change, says what happened in plain words, and refreshes the view. `done` null: the action
 * tells the outcome itself (a channel test that ran but failed is not a success).
 */
export async function runAdminAction(action: () => Promise<unknown>, done: string | null, refresh: () => unknown): Promise<boolean> {
  try {
    await action();
    if (done !== null) notifications.show({ color: 'green', message: done });
    await refresh();
    return true;
  } catch (error) {
    notifications.show({ color: 'red', message: errorText(error) });
    return false;
  }
}

export const splitList = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter(Boolean);
