import { useSyncExternalStore } from 'react';
import type { ArtifactKind, SealContractView } from '../../../common/ipc/nom151';

/**
 * Every contract sealed since the app was opened, kept outside the Signing screen so that leaving it loses none:
 * sealing again would issue a second constancia with another folio and time. Only the views are kept here (small:
 * the service's answer in them is abbreviated); the files themselves wait in main under `artifactId` until saved,
 * as they did before. Module state, so it lasts as long as the renderer does, like main's files.
 */
export interface KeptSeal {
  view: SealContractView;
  /** When the answer arrived (ISO), for a seal whose evidence could not be read and so has no stamp time. */
  receivedAt: string;
  /** The files the user saved (or whose download started), of those the seal produced. */
  saved: readonly ArtifactKind[];
  /** Main no longer keeps the files (it keeps those of its latest results only): a save said so. */
  gone?: true;
}

export interface KeptSeals {
  /** Newest first. */
  seals: readonly KeptSeal[];
  /** Contract ids whose seal was asked for and has not answered yet (one entry per request). */
  sealing: readonly string[];
}

/** A contract and its seals of this session, newest first; `seals[0]` is the one shown first. */
export interface ContractSeals {
  contractId: string;
  seals: KeptSeal[];
}

export const ARTIFACT_KINDS: readonly ArtifactKind[] = ['evidence', 'signedDocument', 'sealedPdf'];

let state: KeptSeals = { seals: [], sealing: [] };
const listeners = new Set<() => void>();

function set(next: KeptSeals): void {
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function keptSeals(): KeptSeals {
  return state;
}

export function useKeptSeals(): KeptSeals {
  return useSyncExternalStore(subscribe, keptSeals);
}

export function keepSeal(view: SealContractView, receivedAt = new Date().toISOString()): void {
  set({ ...state, seals: [{ view, receivedAt, saved: [] }, ...state.seals] });
}

/** Marks a request under way; call what it returns once it answered, whatever the answer. */
export function startSealing(contractId: string): () => void {
  set({ ...state, sealing: [...state.sealing, contractId] });
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    const at = state.sealing.indexOf(contractId);
    if (at >= 0) set({ ...state, sealing: state.sealing.filter((_, i) => i !== at) });
  };
}

export function markSaved(artifactId: string, kind: ArtifactKind): void {
  if (!state.seals.some((s) => s.view.artifactId === artifactId && !s.saved.includes(kind))) return;
  set({
    ...state,
    seals: state.seals.map((s) => (s.view.artifactId === artifactId ? { ...s, saved: [...s.saved, kind] } : s)),
  });
}

export function markGone(artifactId: string): void {
  if (!state.seals.some((s) => s.view.artifactId === artifactId && !s.gone)) return;
  set({ ...state, seals: state.seals.map((s) => (s.view.artifactId === artifactId ? { ...s, gone: true } : s)) });
}

/** The files a seal produced that were never saved (none once main no longer keeps them). */
export function unsavedKinds(seal: KeptSeal): ArtifactKind[] {
  if (seal.gone) return [];
  return ARTIFACT_KINDS.filter((kind) => seal.view.available[kind] && !seal.saved.includes(kind));
}

/** The stamp's own time when the evidence could be read, else when the answer arrived. */
export function sealTime(seal: KeptSeal): string {
  return seal.view.verification.details?.genTime ?? seal.receivedAt;
}

/** One entry per contract, the contract sealed last first; each with its seals newest first. */
export function byContract(seals: readonly KeptSeal[]): ContractSeals[] {
  const groups = new Map<string, KeptSeal[]>();
  for (const seal of seals) {
    const group = groups.get(seal.view.signedContractId);
    if (group) group.push(seal);
    else groups.set(seal.view.signedContractId, [seal]);
  }
  return [...groups].map(([contractId, list]) => ({ contractId, seals: list }));
}
