// Preloaded by `npm start` (--import): zod's locales (61 translations of its error messages, 340 KB of
// source, ~40 % of zod) are loaded only if one is asked for. Every zod entry point, `zod/mini` and
// `zod/v4/core` included, re-exports the whole set (`export * as locales`), though zod itself uses only
// English, which its schemas import directly (zod/v4/classic/schemas.js). This load hook rewrites the
// locales index so that each translation is a function requiring zod's CommonJS build of that file on
// its first call: `z.locales.fr()` returns what it always did, English stays the module zod imports.
// If the index ever stops looking like a list of `export { default as X } from "./X.js"`, it is loaded
// unchanged.
import { registerHooks } from 'node:module';

const LOCALES_INDEX = /\/node_modules\/zod\/v4\/locales\/index\.js$/;
const REEXPORT = /^export \{ default as (\w+) \} from "\.\/([\w-]+)\.js";$/;

registerHooks({
  load(url, context, nextLoad) {
    const loaded = nextLoad(url, context);
    if (!LOCALES_INDEX.test(url) || loaded.source == null) return loaded;
    const text = typeof loaded.source === 'string' ? loaded.source : new TextDecoder().decode(loaded.source);
    const lines = text.split('\n').map((line) => line.trim()).filter(Boolean);
    const entries = lines.map((line) => REEXPORT.exec(line));
    if (entries.some((entry) => entry === null)) return loaded;
    const source = [
      'import { createRequire } from "node:module";',
      'const require = createRequire(import.meta.url);',
      'const lazy = (file) => (...args) => { const locale = require(file); return (locale.default ?? locale)(...args); };',
      ...entries.map(([, name, file]) => file === 'en'
        ? `export { default as ${name} } from "./en.js";`
        : `export const ${name} = lazy("./${file}.cjs");`),
    ].join('\n');
    return { ...loaded, source, shortCircuit: true };
  },
});
