import { z } from 'zod';
import { Timestamp } from './common';

export const ListApiKeysQuery = z.object({ apiKey: z.string().min(1).optional() });

/** An integer id as plain digits, even past 1e21 where `String` would write an exponent. */
function integerText(n: number): string {
  return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString();
}

/** Record fields not shown (decisions.md §8): open to unknown fields; a full key is never expected. */
export const ApiKeyRecord = z.looseObject({
  /**
   * A numeric id is read as its decimal string, so one record shape serves every environment. A Java `long` above
   * 2^53 is read too, as the text of the number JSON.parse made of it: its last digits are already rounded there
   * (1234567890123456789 → "1234567890123456800"), but the list is not refused over it.
   */
  id: z.union([z.string().min(1), z.number().refine(Number.isInteger).transform(integerText)]),
  name: z.string().optional(),
  maskedKey: z.string().optional(),
  createdAt: Timestamp.optional(),
  enabled: z.boolean().optional(),
});
export type ApiKeyRecord = z.infer<typeof ApiKeyRecord>;

export const ListApiKeysResponse = z.array(ApiKeyRecord);
export type ListApiKeysResponse = z.infer<typeof ListApiKeysResponse>;
