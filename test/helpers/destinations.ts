import { type Destination, serviceDestination } from '../../main/auth/destination';

/** A service destination for a vault test: the environment `scope` at one fixed address. */
export const to = (scope: string): Destination =>
  serviceDestination({ id: scope, baseUrl: 'https://omni.test', authUrl: 'https://auth.omni.test' });
