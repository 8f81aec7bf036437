import { ERROR_CODE, kitError } from '../shared/errors.js';
import { identificationKey } from '../shared/identification-key.js';
import type { Log } from '../shared/log.js';
import { isThenable, type Maybe } from '../shared/maybe.js';
import { withTimeout } from '../shared/with-timeout.js';
import type { VerificationBinding } from './binding.js';
import type { RecordStore } from './binding-store.js';
import type { KitRequest } from './kit-request.js';

/** Whose verification a request asks about: a signed-in account, or (no accountId) this browser session. */
export interface Owner {
  accountId?: string;
}

/** The integrator's: the signed-in account of the framework's request (KitRequest.raw). */
export type AccountOf = (req: never) => unknown;

/** A store that does not answer within this fails the request (503; the gate fails closed). */
const STORE_TIMEOUT_MS = 2000;

/**
 * The one place that decides which verification a request may use. An account's binding lives in
 * the store's bindings (the account is the proof); an anonymous visitor's lives in its browser
 * session (KitRequest.visitor) and counts only when the request proves it. Nothing ever moves an anonymous binding into an
 * account: a planted session must not verify somebody else's account.
 */
export class Bindings {
  constructor(
    private readonly accountOf: AccountOf | undefined,
    readonly store: RecordStore,
    private readonly log: Log,
  ) {}

  get accountMode(): boolean {
    return this.accountOf !== undefined;
  }

  /** The request's owner: at once when accountOf answers at once. */
  ownerOf(req: KitRequest): Maybe<Owner> {
    if (this.accountOf === undefined) return {};
    let id: unknown;
    try {
      id = this.accountOf(req.raw as never);
    } catch (cause) {
      throw this.#accountOfThrew(cause);
    }
    if (!isThenable(id)) return this.#ownerFrom(id);
    return Promise.resolve(id).then(
      (value) => this.#ownerFrom(value),
      (cause: unknown) => {
        throw this.#accountOfThrew(cause);
      },
    );
  }

  #accountOfThrew(cause: unknown) {
    this.log.error('accountOf(req) threw', {
      error: cause instanceof Error ? cause.message : String(cause),
    });
    return kitError(ERROR_CODE.ACCOUNT_RESOLUTION_FAILED, 'the server could not tell who is signed in');
  }

  #ownerFrom(id: unknown): Owner {
    if (id === undefined || id === null) return {};
    if (typeof id === 'number' && Number.isSafeInteger(id)) return { accountId: String(id) };
    if (typeof id !== 'string' || id.length === 0 || id.length > 256) {
      this.log.error('accountOf(req) must return a non-empty string (at most 256 characters) or undefined');
      throw kitError(ERROR_CODE.ACCOUNT_RESOLUTION_FAILED, 'the server could not tell who is signed in');
    }
    return { accountId: id };
  }

  /** The verification this owner may use: the account's, or the session's when the request proves it. */
  find(req: KitRequest | undefined, owner: Owner): Maybe<VerificationBinding | undefined> {
    const { accountId } = owner;
    if (accountId !== undefined) return this.stored(() => this.store.bindings.get(accountId));
    return req?.visitor.binding();
  }

  /** The binding this owner holds, proven or not: the account's, or the one this browser keeps. */
  async held(req: KitRequest, owner: Owner): Promise<VerificationBinding | undefined> {
    const { accountId } = owner;
    if (accountId !== undefined) return this.stored(() => this.store.bindings.get(accountId));
    return req.visitor.heldBinding();
  }

  /** Binds `binding` to the account, or to this browser under a new session id with a new proof. */
  async set(req: KitRequest, owner: Owner, binding: VerificationBinding): Promise<void> {
    const { accountId } = owner;
    if (accountId !== undefined) await this.stored(() => this.store.bindings.set(accountId, binding));
    else await req.visitor.bind(binding);
  }

  /** Removes the owner's binding (the account's, or this browser's with its proof). */
  async remove(req: KitRequest, owner: Owner): Promise<void> {
    const { accountId } = owner;
    if (accountId !== undefined) await this.stored(() => this.store.bindings.delete(accountId));
    else await req.visitor.forget();
  }

  /** The identification's status record goes: it is bound to nobody any more. */
  async dropStatus(identificationId: string): Promise<void> {
    const key = identificationKey(identificationId);
    await this.stored(() => this.store.statusRecords.delete(key));
  }

  /**
   * The first approval seen by a request that proved an anonymous binding: its session moves to a
   * new id (sent on this response only). Accounts keep theirs: their sign-in is the app's.
   */
  approved(
    req: KitRequest,
    owner: Owner,
    binding: VerificationBinding,
    at: number,
  ): Promise<void> | undefined {
    if (owner.accountId !== undefined || binding.approvedAt !== undefined) return;
    return req.visitor.approve(binding, new Date(at).toISOString());
  }

  /**
   * A store call within the timeout, answered at once when the store answers at once (the memory
   * store: no timer, no step of waiting); any failure is BINDING_STORE_UNAVAILABLE (the cause is logged).
   */
  stored<T>(call: () => T | Promise<T>): Maybe<T> {
    let result: T | Promise<T>;
    try {
      result = call();
    } catch (cause) {
      throw this.#failed(cause);
    }
    if (!isThenable(result)) return result;
    return withTimeout(result as Promise<T>, STORE_TIMEOUT_MS).catch((cause: unknown) => {
      throw this.#failed(cause);
    });
  }

  #failed(cause: unknown) {
    this.log.error('the binding store failed', {
      error: cause instanceof Error ? cause.message : String(cause),
    });
    return kitError(ERROR_CODE.BINDING_STORE_UNAVAILABLE, 'the server cannot check verifications right now');
  }
}
