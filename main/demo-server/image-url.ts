import { badRequest } from './errors';

const MAX_FETCH_BYTES = 25 * 1024 * 1024;

/** True when the host is an allow-listed domain or one of its subdomains. */
export function isAllowedHost(hostname: string, allowList: string[]): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return allowList.some((entry) => {
    const domain = entry.toLowerCase();
    return host === domain || host.endsWith(`.${domain}`);
  });
}

/** Fetches an `imageUrl` only from allow-listed domains (none by default), with a timeout and a size cap. */
export async function fetchAllowedImage(imageUrl: string, allowList: string[]): Promise<Buffer> {
  const url = new URL(imageUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw badRequest(`imageUrl must be http(s); got ${url.protocol}`, { field: 'imageUrl' });
  if (!isAllowedHost(url.hostname, allowList)) {
    throw badRequest(
      allowList.length
        ? `imageUrl domain ${url.hostname} is not on this server's allow-list (${allowList.join(', ')}). Send the image as base64Image instead.`
        : `imageUrl domain ${url.hostname} is not allowed: this server fetches from no domain. Send the image as base64Image instead.`,
      { field: 'imageUrl', host: url.hostname },
    );
  }
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: 'error' });
  } catch (err) {
    throw badRequest(
      `imageUrl could not be fetched (${err instanceof Error ? err.message : 'network error'}). Check the link or send base64Image.`,
      { field: 'imageUrl' },
    );
  }
  if (!response.ok)
    throw badRequest(`imageUrl answered HTTP ${response.status}. Check the link or send base64Image.`, {
      field: 'imageUrl',
    });
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_FETCH_BYTES)
    throw badRequest(`imageUrl is ${declared} bytes; the limit is ${MAX_FETCH_BYTES}.`, { field: 'imageUrl' });
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length > MAX_FETCH_BYTES)
    throw badRequest(`imageUrl is larger than ${MAX_FETCH_BYTES} bytes.`, { field: 'imageUrl' });
  return bytes;
}
