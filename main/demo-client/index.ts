import { DemoRouteError } from '../errors';

/**
 * main's one way to the embedded demo server's own routes (`/__demo/*`, demo-routes.ts), which are not part of the
 * service's interface: its credentials at start, its seeded interviews for the queue, its NOM-151 root.
 * Each answers null or throws DemoRouteError; callers say what that means to the user.
 *
 * A folder of its own, apart from main/demo-server: the demo server uses NOM-151's code (main/nom151) for its seals,
 * and main/nom151 asks it for its root through this client, so with the client inside the demo server the two
 * folders imported each other.
 */
export interface DemoRoutes {
  credentials(): Promise<Record<string, unknown>>;
  /** Seeded interviews; with an API key, only that key's organization. */
  interviews(apiKey?: string): Promise<unknown>;
  /** The root of the demo NOM-151 provider chain, PEM; null when the server has none or did not answer. */
  nom151Root(): Promise<string | null>;
}

export function demoRoutes(baseUrl: string, fetchImpl: typeof fetch = fetch): DemoRoutes {
  async function get(route: string, headers: Record<string, string> = {}): Promise<Response> {
    let res: Response;
    try {
      res = await fetchImpl(new URL(route, baseUrl), { headers, signal: AbortSignal.timeout(5_000) });
    } catch {
      throw new DemoRouteError(route);
    }
    if (!res.ok) throw new DemoRouteError(route, res.status);
    return res;
  }
  return {
    credentials: async () => (await (await get('/__demo/credentials')).json()) as Record<string, unknown>,
    interviews: async (apiKey) => (await get('/__demo/interviews', apiKey ? { 'x-api-key': apiKey } : {})).json(),
    nom151Root: () =>
      get('/__demo/nom151-root.pem')
        .then((res) => res.text())
        .catch(() => null),
  };
}
