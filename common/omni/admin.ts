import { z } from 'zod';
import { Timestamp } from './common';

export const ListApiKeysQuery = z.object({ apiKey: z.string().min(1).optional() });

/** Record fields not shown (decisions.md §8): open to unknown fields; a full key is never expected. */
export const ApiKeyRecord = z.looseObject({
  /** A numeric id is read as its decimal string, so one record shape serves every environment. */
  id: z.union([z.string().min(1), z.number().int().transform(String)]),
  name: z.string().optional(),
  maskedKey: z.string().optional(),
  createdAt: Timestamp.optional(),
  enabled: z.boolean().optional(),
});
export type ApiKeyRecord = z.infer<typeof ApiKeyRecord>;

export const ListApiKeysResponse = z.array(ApiKeyRecord);
export type ListApiKeysResponse = z.infer<typeof ListApiKeysResponse>;
