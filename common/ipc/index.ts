import type { ChannelDef, InputOf, OutputOf } from './define';
import { app } from './app';
import { settings } from './settings';
import { queue } from './queue';
import { interview } from './interview';
import { nom151 } from './nom151';
import { apikeys } from './apikeys';
import { validation } from './validation';
import { capture } from './capture';
import { team } from './team';
import { evidence } from './evidence';
import { bulk } from './bulk';

/**
 * Every IPC channel of the app, grouped by domain. The wire name of a channel is `<domain>.<method>`.
 * Each domain lives in its own file beside this one; add the domain here.
 */
export const contract = {
  app,
  settings,
  queue,
  interview,
  nom151,
  apikeys,
  validation,
  capture,
  team,
  evidence,
  bulk,
} as const satisfies Record<string, Record<string, ChannelDef>>;

export type Contract = typeof contract;
export type DomainName = keyof Contract;

/** What the renderer sees as `window.omni`: one typed async function per channel, nothing else. */
export type OmniApi = {
  [D in keyof Contract]: {
    [M in keyof Contract[D]]: (input: InputOf<Contract[D][M]>) => Promise<OutputOf<Contract[D][M]>>;
  };
};

export * from './define';
