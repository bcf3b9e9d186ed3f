/** The TypeScript modules src/ imports on first use, as absolute paths (scripts/lazy-ts-modules.js). */
export function lazyTsModules(root: string): string[];
