// Legal variants of progression: phaseHistory recording the phase left.
import type { Variant } from '../variants.ts';
import { type FaultContext, type FaultHooks, type Json, applied, is, isObject, memory, onResult } from './helpers.ts';

interface Entry { phase: string; enteredAt: number; exitedAt?: number; triggerId?: string }
/** Entered-phase history (the reference's) → one entry per phase left, with the trigger that ended it. */
const toLeft = (h: Entry[]): Entry[] => h.slice(0, -1).map((e, i) => ({ phase: e.phase, enteredAt: e.enteredAt, exitedAt: h[i + 1].enteredAt, ...(h[i + 1].triggerId !== undefined ? { triggerId: h[i + 1].triggerId } : {}) }));
function phaseLeftHooks(): FaultHooks {
  const original = (ctx: FaultContext) => memory<string, Entry[]>(ctx, 'history-of');
  const out = (p: Json, ctx: FaultContext) => {
    if (!Array.isArray(p?.phaseHistory)) return;
    const left = toLeft(p.phaseHistory);
    original(ctx).set(JSON.stringify([p.currentPhase, left]), p.phaseHistory);
    if (left.length) applied(ctx);
    p.phaseHistory = left;
  };
  /** Back to the entered-phase history, for an import: the one it was made from, or rebuilt from it. */
  const back = (p: Json, ctx: FaultContext, createdAt: number) => {
    if (!Array.isArray(p?.phaseHistory)) return;
    const left = p.phaseHistory as Entry[];
    const known = original(ctx).get(JSON.stringify([p.currentPhase, left]));
    if (known) { p.phaseHistory = known; return; }
    const last = left[left.length - 1];
    p.phaseHistory = [
      ...left.map((e, i) => ({ phase: e.phase, enteredAt: e.enteredAt, ...(e.exitedAt !== undefined ? { exitedAt: e.exitedAt } : {}), ...(i > 0 && left[i - 1].triggerId ? { triggerId: left[i - 1].triggerId } : {}) })),
      { phase: p.currentPhase, enteredAt: last?.exitedAt ?? createdAt, ...(last?.triggerId ? { triggerId: last.triggerId } : {}) },
    ];
  };
  return {
    request(req, ctx) {
      const snap = is(req, 'putWorldSnapshot') ? (req.body as Json | undefined)?.snapshot : undefined;
      if (isObject(snap) && isObject(snap.progression)) back(snap.progression, ctx, snap.createdAt);
    },
    response: onResult(['queryWorld', 'getWorldSnapshot'], (r, _req, ctx) => out(r.progression, ctx)),
  };
}

export const VARIANTS: Variant[] = [
  {
    id: 'phase-history-left', areas: ['progression', 'simulation', 'model'], allowedWarnings: [],
    description: 'phaseHistory gains an entry for the phase LEFT when a trigger fires: {phase left, enteredAt, exitedAt, triggerId that ended it}; the current phase has none',
    gap: 'States and transitions: "`phaseHistory` gains an entry with `triggerId`"; entries are {phase, enteredAt, exitedAt, triggerId}.',
    ...phaseLeftHooks(),
  },
];
