import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contract } from '../../../common/ipc/index';

/** Every channel whose input is an object, by its `domain.channel` name. */
const objectChannels = Object.entries(contract).flatMap(([domain, channels]) =>
  Object.entries(channels as Record<string, { input: z.ZodType }>)
    .filter(([, def]) => def.input instanceof z.ZodObject)
    .map(([name, def]) => ({ name: `${domain}.${name}`, input: def.input })),
);

describe('IPC inputs', () => {
  it('refuse a key their schema does not name, on every channel (zod would drop it without a word)', () => {
    expect(objectChannels.length).toBeGreaterThan(80);
    const accepting = objectChannels.filter(
      ({ input }) =>
        !input
          .safeParse({ __proto__: null, unexpectedKey: 1 })
          .error?.issues.some((i) => i.code === 'unrecognized_keys'),
    );
    expect(accepting.map((c) => c.name)).toEqual([]);
  });
});
