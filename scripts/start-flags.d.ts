/** The Node flags of `npm start` in that checkout, `--import=./…` made absolute (scripts/start-flags.js). */
export function startScriptFlags(root: string): string[];
