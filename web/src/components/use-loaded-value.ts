import { useState } from 'react';

/**
 * A form field that shows the stored value until the user edits it. Copying the loaded value into state
 * with an effect lost what a quick user had typed: the answer arrived (or was refetched after a save or
 * on window focus) and overwrote the field, so the form saved the old value and said nothing. Here the
 * loaded value is only a default; once edited, the user's value stays.
 */
export function useLoadedValue<T>(loaded: T | undefined, fallback: T): [T, (value: T) => void] {
  const [edited, setEdited] = useState<{ value: T } | null>(null);
  return [edited ? edited.value : (loaded ?? fallback), (value: T) => setEdited({ value })];
}
