// The admin pages' English comes with their chunk, not in the sign-in bundle (another language's file has
// them already). Imported for this side effect by AdminPage.tsx, before any admin section renders (each is
// a lazy child of that page), and by a test that renders an admin section alone.
import { i18n } from '../../i18n/i18n.ts';
import { enAdmin } from '../../i18n/en-admin.ts';

i18n.addResourceBundle('en', 'translation', { admin: enAdmin }, true, false);
