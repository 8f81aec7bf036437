// Builds the packages of a graph whose output is not current, dependencies first and independent
// packages side by side. A package is current when its stamp (written after its last successful
// build here) still matches both the hash of its inputs and the content of its output directory,
// and no dependency was rebuilt in this run.
import { join } from 'node:path';
import { inputsHash, outputsFingerprint, readStamps, writeStamps } from './build-stamps.mjs';

/** Stamps and build info are bookkeeping, not output that is served. */
const isBookkeeping = (file) => file.includes('.build-stamps.json') || file.endsWith('.tsbuildinfo');

/**
 * @param {object} plan
 * @param {{ name: string, dir: string, deps: string[] }[]} plan.graph dependencies before dependents
 * @param {string} plan.stampsFile where the stamps are kept (written only when something was built)
 * @param {string[]} plan.sharedInputs files every build reads (root tsconfig, lockfile)
 * @param {(node: { name: string, dir: string }, how: { clean: boolean }) => Promise<unknown>} plan.build
 *   builds one package; `clean` when its output is unknown (no stamp, forced) or was changed since
 *   its last build here, so incremental state must not be trusted
 * @param {boolean} [plan.force] rebuild everything
 * @returns {Promise<string[]>} the names of the packages built, in the order they finished
 */
export async function buildStale({ graph, stampsFile, sharedInputs, build, force = false }) {
  const stamps = force ? {} : readStamps(stampsFile);
  const fingerprintOf = (node) => outputsFingerprint(join(node.dir, 'dist'), isBookkeeping);
  const inputs = new Map();
  for (const node of graph) {
    const depHashes = node.deps.map((dep) => `${dep}=${inputs.get(dep)}`);
    inputs.set(node.name, inputsHash(node.dir, sharedInputs, depHashes));
  }

  const built = [];
  const settled = new Map();
  const settle = async (node) => {
    const depsRebuilt = await Promise.all(node.deps.map((dep) => settled.get(dep)));
    const stamp = stamps[node.name];
    const outputsIntact = stamp !== undefined && stamp.outputs === fingerprintOf(node);
    if (outputsIntact && stamp.inputs === inputs.get(node.name) && !depsRebuilt.includes(true)) return false;
    delete stamps[node.name];
    // Output deleted or changed behind our back: an incremental build may trust it, so start clean.
    await build(node, { clean: !outputsIntact });
    // The inputs hashed before the build: an edit made while it ran is rebuilt next time.
    stamps[node.name] = { inputs: inputs.get(node.name), outputs: fingerprintOf(node) };
    built.push(node.name);
    return true;
  };
  // Dependencies come first in the graph, so each one's promise exists before it is awaited.
  for (const node of graph) settled.set(node.name, settle(node));
  const results = await Promise.allSettled(settled.values());

  if (built.length > 0 || force) writeStamps(stampsFile, stamps);
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
  return built;
}
