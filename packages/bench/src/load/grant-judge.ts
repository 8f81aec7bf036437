import type { SandboxDirect } from './sandbox-direct.js';

/**
 * Judges each 200 of the gate against the sandbox itself, read directly with the key (never
 * through the kit or the proxy). APPROVED is final in the sandbox, so an identification that is
 * not APPROVED when read after the gate answered was not APPROVED before it: a false grant.
 */
export class GrantJudge {
  readonly #approved = new Set<string>();
  #falseGrants = 0;
  #checks = 0;
  readonly #falseGrantIds = new Set<string>();

  constructor(private readonly sandbox: SandboxDirect) {}

  /** true when the grant was right. */
  async judge(identificationId: string): Promise<boolean> {
    this.#checks++;
    if (this.#approved.has(identificationId)) return true;
    const truth = await this.sandbox.identification(identificationId);
    if (truth.status === 200 && truth.json?.status === 'APPROVED') {
      this.#approved.add(identificationId);
      return true;
    }
    this.#falseGrants++;
    this.#falseGrantIds.add(identificationId);
    return false;
  }

  get falseGrants(): number {
    return this.#falseGrants;
  }

  get checks(): number {
    return this.#checks;
  }

  get falseGrantIds(): readonly string[] {
    return [...this.#falseGrantIds];
  }
}
