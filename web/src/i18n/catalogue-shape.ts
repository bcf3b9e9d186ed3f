import type { Catalogue } from './en.ts';

/** Another language's catalogue: exactly English's keys, every leaf a string (checked by the compiler). */
export type CatalogueShape<T = Catalogue> = { [K in keyof T]: T[K] extends string ? string : CatalogueShape<T[K]> };
