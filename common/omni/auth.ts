import { z } from 'zod';

/**
 * The spec's table says `integration_id`, its sample `integrationId`; the client sends both with the same
 * value (decisions.md §3) and the demo server accepts either but rejects two different values.
 */
export const AuthorizeRequest = z
  .object({
    integration_id: z.string().min(1).optional(),
    integrationId: z.string().min(1).optional(),
    secret: z.string().min(1),
  })
  .refine((b) => b.integration_id !== undefined || b.integrationId !== undefined, {
    message: 'integration_id (or integrationId) is required',
    path: ['integration_id'],
  })
  .refine((b) => !(b.integration_id && b.integrationId && b.integration_id !== b.integrationId), {
    message: 'integration_id and integrationId differ',
    path: ['integrationId'],
  });
export type AuthorizeRequest = z.infer<typeof AuthorizeRequest>;

/**
 * The server token: a JWT of about 1 KB. One of megabytes (a proxy's, a broken gateway's) is no token, and main held
 * and redacted it in every error and log line: 3 MB ran main out of memory (red team 17).
 */
export const SERVER_TOKEN_MAX = 16 * 1024;
export const AuthorizeResponse = z.looseObject({ token: z.string().min(1).max(SERVER_TOKEN_MAX) });
export type AuthorizeResponse = z.infer<typeof AuthorizeResponse>;
