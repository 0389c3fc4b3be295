import type { z } from 'zod';
import type { DemoTsa } from '../nom151/tsa';
import type { EndpointName, Endpoints } from '../omni/endpoints';
import type { DemoClock } from './clock';
import type { UrlSigner } from './signing';
import type { ApiKeySeed, Organization } from './seed';
import type { DemoState, InterviewState } from './state';
import type { TokenClaims, TokenIssuer } from './tokens';

/** The pieces one running demo server shares between its routes. */
export interface DemoDeps {
  state: DemoState;
  clock: DemoClock;
  tokens: TokenIssuer;
  signer: UrlSigner;
  tsa: () => Promise<DemoTsa>;
  contractPdf: (interview: InterviewState, documentId: string) => Promise<Uint8Array>;
  /** The long videocall recording, built once when the server starts. */
  longCallVideo: () => Promise<Uint8Array>;
  imageUrlAllowList: string[];
  /** Origin clients reach this server at, for the absolute pre-signed URLs. */
  origin: () => string;
}

export interface CallContext<N extends EndpointName> {
  query: z.output<Endpoints[N]['query']>;
  body: z.output<Endpoints[N]['body']>;
  org: Organization;
  apiKey: ApiKeySeed;
  claims: TokenClaims | null;
  /** The interview the call is about (session and fetch endpoints). */
  interview: InterviewState | null;
  deps: DemoDeps;
}

export type Handlers = { [N in EndpointName]: (ctx: CallContext<N>) => Promise<z.input<Endpoints[N]['response']>> };
