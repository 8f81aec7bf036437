// @verify-kit/core/testing: the store contract every store of the kit passes, published so that a
// store of your own (or ours on your database) can be checked the same way. Runs with Vitest (an
// optional peer dependency): import it in a test file only.

export type { ContractStore, StoreContractOptions } from './testing/store-contract.js';
export { runStoreContract } from './testing/store-contract.js';
