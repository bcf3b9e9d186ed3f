// A deliberate cycle of type-only imports, and a hub module reaching into a format: the rules must see both.
import type { B } from './b.ts';
import { formatThing } from '../formats/thing.ts';

export interface A { b: B; thing: typeof formatThing }
