// Preloaded by `npm start` (--import): turns on Node's on-disk compile cache before the entry loads, so a
// restart neither strips the TypeScript sources again nor loads the type stripper (a WASM module, ~20 MB
// resident per thread, the metering worker's included) and compiles less. Node checks each cached entry
// against its source's hash, so an edited file is simply stripped and compiled again.
// NODE_COMPILE_CACHE chooses the directory (default: the system temp dir); NODE_DISABLE_COMPILE_CACHE=1 turns it off.
import { enableCompileCache } from 'node:module';

enableCompileCache();
