import { z } from 'zod';
import * as c from '../../common/omni';

/**
 * Which token a call carries (decisions.md §5-6):
 * - none: the authorization call itself;
 * - server: organization-level calls;
 * - session: session-bound writes that take no interview id;
 * - fetch: the server token when the interview id is passed in `idParam`, the interview's session token otherwise.
 */
export type TokenKind = 'none' | 'server' | 'session' | 'fetch';

export type HttpMethod = 'GET' | 'POST';

export interface EndpointDef<
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  M extends HttpMethod = HttpMethod,
> {
  method: M;
  host: 'base' | 'auth';
  path: string;
  query: Q;
  body: B;
  response: R;
  token: TokenKind;
  /** Query parameter that names the interview, for `fetch` endpoints. */
  idParam?: string;
}

function endpoint<Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType, M extends HttpMethod>(
  def: EndpointDef<Q, B, R, M>,
) {
  return def;
}

/** The whole service interface: one row per endpoint of omni-interface.md, numbered as there. */
export const endpoints = {
  /* 1 */ authorizeServer: endpoint({
    method: 'POST',
    host: 'auth',
    path: '/v1/integration/authorize/server',
    query: c.NoQuery,
    body: c.AuthorizeRequest,
    response: c.AuthorizeResponse,
    token: 'none',
  }),
  /* 2 */ listApiKeys: endpoint({
    method: 'GET',
    host: 'base',
    path: '/omni/api-key',
    query: c.ListApiKeysQuery,
    body: c.NoBody,
    response: c.ListApiKeysResponse,
    token: 'server',
  }),
  /* 3 */ validateRfc: endpoint({
    method: 'POST',
    host: 'base',
    path: '/api/validate/rfc',
    query: c.NoQuery,
    body: c.ValidateRfcBody,
    response: c.ValidateRfcResponse,
    token: 'server',
  }),
  /* 4 */ addFace: endpoint({
    method: 'POST',
    host: 'base',
    path: '/omni/add/face/third-party',
    query: c.AddFaceQuery,
    body: c.AddFaceBody,
    response: c.AddFaceResponse,
    token: 'session',
  }),
  /* 5 */ calculateContractNom151: endpoint({
    method: 'POST',
    host: 'base',
    path: '/omni/calculate-contract-nom151-signature',
    query: c.NoQuery,
    body: c.CalculateContractBody,
    response: c.CalculateContractResponse,
    token: 'server',
  }),
  /* 6 */ authenticateFace: endpoint({
    method: 'POST',
    host: 'base',
    path: '/omni/onboarding-authentications/authenticate',
    query: c.NoQuery,
    body: c.AuthenticateBody,
    response: c.AuthenticateResponse,
    token: 'server',
  }),
  /* 7 */ addBackSecondId: endpoint({
    method: 'POST',
    host: 'base',
    path: '/omni/add/back-second-id/v2',
    query: c.AddBackSecondIdQuery,
    body: c.AddBackSecondIdBody,
    response: c.AddBackSecondIdResponse,
    token: 'session',
  }),
  /* 8 */ importVideo: endpoint({
    method: 'POST',
    host: 'base',
    path: '/omni/recordings/import/third-party',
    query: c.NoQuery,
    body: c.ImportVideoBody,
    response: c.ImportVideoResponse,
    token: 'session',
  }),
  /* 9 */ addConferenceNotes: endpoint({
    method: 'POST',
    host: 'base',
    path: '/omni/add/conference/notes',
    query: c.NoQuery,
    body: c.AddNotesBody,
    response: c.SuccessResponse,
    token: 'session',
  }),
  /* 10 */ signStringNom151: endpoint({
    method: 'POST',
    host: 'base',
    path: '/omni/sign-string/nom151',
    query: c.NoQuery,
    body: c.SignStringBody,
    response: c.SignStringResponse,
    token: 'server',
  }),
  /* 11 */ addName: endpoint({
    method: 'POST',
    host: 'base',
    path: '/omni/add/name',
    query: c.NoQuery,
    body: c.AddNameBody,
    response: c.SuccessResponse,
    token: 'session',
  }),
  /* 12 */ getContractLinks: endpoint({
    method: 'GET',
    host: 'base',
    path: '/omni/get/contracts-links',
    query: c.InterviewIdQuery,
    body: c.NoBody,
    response: c.ContractLinksResponse,
    token: 'fetch',
    idParam: 'id',
  }),
  /* 13 */ getRawIdvResults: endpoint({
    method: 'GET',
    host: 'base',
    path: '/omni/get/raw-idv-results',
    query: c.InterviewIdQuery,
    body: c.NoBody,
    response: c.RawIdvResponse,
    token: 'fetch',
    idParam: 'id',
  }),
  /* 14 */ addCurp: endpoint({
    method: 'POST',
    host: 'base',
    path: '/omni/add/curp',
    query: c.NoQuery,
    body: c.AddCurpBody,
    response: c.AddCurpResponse,
    token: 'session',
  }),
  /* 15 */ getVideoSelfieUrl: endpoint({
    method: 'GET',
    host: 'base',
    path: '/omni/generateVideoSelfieDownloadUrl',
    query: c.VideoSelfieUrlQuery,
    body: c.NoBody,
    response: c.VideoSelfieUrlResponse,
    token: 'fetch',
    idParam: 'interviewId',
  }),
  /* 16 */ getCrossDocResults: endpoint({
    method: 'GET',
    host: 'base',
    path: '/omni/cross-doc-data-check/results',
    query: c.InterviewIdQuery,
    body: c.NoBody,
    response: c.CrossDocResponse,
    token: 'fetch',
    idParam: 'id',
  }),
} as const;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
export type QueryOf<N extends EndpointName> = z.input<Endpoints[N]['query']>;
export type BodyOf<N extends EndpointName> = z.input<Endpoints[N]['body']>;
export type ResponseOf<N extends EndpointName> = z.output<Endpoints[N]['response']>;

/** What a caller passes to `OmniClient.call`: a body only where the endpoint takes one; the query is optional. */
export type CallInput<N extends EndpointName> = ([BodyOf<N>] extends [undefined]
  ? { body?: undefined }
  : { body: BodyOf<N> }) & {
  query?: QueryOf<N>;
};
