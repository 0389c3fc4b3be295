import { describe, expect, it } from 'vitest';
import { settings } from '../../../common/ipc/settings';
import { settingsService, type SettingsContext } from '../../../main/settings/service';
import { MemoryJsonStore } from '../../helpers/fake-safe-storage';

/** Preferences only read and write the settings store: the rest of the context is never reached. */
const serviceOver = (store: MemoryJsonStore) => settingsService({ store } as unknown as SettingsContext);

describe('the "show technical details" preference', () => {
  it('is off in new settings and in a settings file written before it existed', () => {
    expect(serviceOver(new MemoryJsonStore()).preferences().technicalDetails).toBe(false);
    const older = new MemoryJsonStore();
    older.set('preferences', { language: 'es', theme: 'dark', afterDecision: 'next' });
    expect(serviceOver(older).preferences()).toEqual({
      language: 'es',
      theme: 'dark',
      afterDecision: 'next',
      technicalDetails: false,
    });
  });

  it('is kept once turned on, beside the other preferences, and can be turned off again', () => {
    const store = new MemoryJsonStore();
    serviceOver(store).setPreferences({ language: 'en' });
    expect(serviceOver(store).setPreferences({ technicalDetails: true })).toMatchObject({
      language: 'en',
      technicalDetails: true,
    });
    // A new service over the same store: what a restart reads.
    expect(serviceOver(store).preferences()).toMatchObject({ language: 'en', technicalDetails: true });
    serviceOver(store).setPreferences({ theme: 'light' });
    expect(serviceOver(store).preferences().technicalDetails).toBe(true);
    serviceOver(store).setPreferences({ technicalDetails: false });
    expect(serviceOver(store).preferences().technicalDetails).toBe(false);
  });

  it('reads anything but true in a hand-edited file as off', () => {
    const store = new MemoryJsonStore();
    store.set('preferences', { theme: 'system', technicalDetails: 'yes' });
    expect(serviceOver(store).preferences().technicalDetails).toBe(false);
  });

  it('is refused at the IPC door unless it is a boolean', () => {
    const input = settings.setPreferences.input;
    expect(input.safeParse({ technicalDetails: true }).success).toBe(true);
    expect(input.safeParse({ technicalDetails: 'true' }).success).toBe(false);
    expect(input.safeParse({ technicalDetails: 1 }).success).toBe(false);
  });
});
