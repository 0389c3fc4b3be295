import { nom151Service } from '../../nom151/service';
import type { DomainHandlers } from '../router';

export const nom151Handlers: DomainHandlers<'nom151'> = {
  signString: async ({ text }, ctx) => nom151Service(ctx).signString(text),
  sealContract: async (input, ctx) => nom151Service(ctx).sealContract(input),
  verify: async (input, ctx) => nom151Service(ctx).verify(input),
  saveArtifact: async ({ artifactId, kind }, ctx) => nom151Service(ctx).saveArtifact(artifactId, kind),
  trustedRoots: async (_input, ctx) => nom151Service(ctx).trustedRoots(),
  addTrustedRoot: async ({ pem }, ctx) => nom151Service(ctx).addTrustedRoot(pem),
};
