// The shape of the background's answers. Each slice answers the request types that
// lib/messages/ assigns to its concern, no more and no fewer: Slice<C> is keyed by exactly
// those types, so a handler missing from its slice, or placed in another, does not compile,
// and every request type has exactly one handler.
import type { ActionResult, Concern, Request, RequestType, Response, TypesOf } from '../../messages';
import type { ManagedPolicy } from '../../store/policy';
import { policyPendingMessage } from '../hand-off-gate';
import type { SenderLike } from '../sender';
import type { WorkerState } from '../worker-state';

export type Handler<T extends RequestType> = (req: Extract<Request, { type: T }>, sender: SenderLike) => Promise<Response<T>>;

export type Slice<C extends Concern> = { [T in TypesOf<C>]: Handler<T> };

export type Handlers = { [T in RequestType]: Handler<T> };

export function fail(error: string, message: string): ActionResult {
  return { ok: false, error, message };
}

/** A handler that decides only under a known policy: while none is known it refuses, and nothing is written. */
export function withPolicy<T extends RequestType>(worker: WorkerState, handler: (req: Parameters<Handler<T>>[0], sender: SenderLike, policy: ManagedPolicy) => Promise<Response<T>>): Handler<T> {
  return async (req, sender) => {
    const policy = await worker.policy();
    return policy ? handler(req, sender, policy) : (fail('policy-pending', policyPendingMessage()) as Response<T>);
  };
}
