import { VIDEO_URL_TTL_MS } from '../../common/omni';

/**
 * When a pre-signed URL stops working. Reads the expiry the signer put in the URL when it is one of the common
 * spellings (`X-Amz-Date` + `X-Amz-Expires`, `Expires`/`expires`/`exp` in epoch seconds or ms), else issue + 1 hour.
 */
export function videoUrlExpiry(remoteUrl: string, issuedAt: Date): Date {
  const fallback = new Date(issuedAt.getTime() + VIDEO_URL_TTL_MS);
  let url: URL;
  try {
    url = new URL(remoteUrl);
  } catch {
    return fallback;
  }
  const amzDate = url.searchParams.get('X-Amz-Date');
  const amzExpires = url.searchParams.get('X-Amz-Expires');
  if (amzDate && amzExpires && /^\d{8}T\d{6}Z$/.test(amzDate) && /^\d+$/.test(amzExpires)) {
    const start = Date.UTC(
      +amzDate.slice(0, 4),
      +amzDate.slice(4, 6) - 1,
      +amzDate.slice(6, 8),
      +amzDate.slice(9, 11),
      +amzDate.slice(11, 13),
      +amzDate.slice(13, 15),
    );
    return new Date(start + Number(amzExpires) * 1000);
  }
  for (const name of ['Expires', 'expires', 'exp']) {
    const value = url.searchParams.get(name);
    if (value && /^\d{9,13}$/.test(value)) {
      const n = Number(value);
      return new Date(value.length >= 12 ? n : n * 1000);
    }
  }
  return fallback;
}
