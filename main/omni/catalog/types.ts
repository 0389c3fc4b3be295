/** One catalog entry: what happened and what to do next, in English and Spanish (Mexico). */
export interface CatalogEntry {
  en: string;
  es: string;
  adviceEn: string;
  adviceEs: string;
  /** Whether repeating the same call (not a new capture) can help. */
  retryable: boolean;
}

/** CURP registry failure groups: 1 check the input, 2 transient (retry may help), 3 contact support. */
export type CurpGroup = 1 | 2 | 3;

/** The answer of `explain`: a catalog entry plus the stable code it was found under. */
export interface Explanation extends CatalogEntry {
  /** Stable code shown in small print, e.g. `4019`, `ID_TYPE_UNACCEPTABLE`, `01-06`. */
  code: string;
  group?: CurpGroup;
}
