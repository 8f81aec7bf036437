// `pnpm build [--force] [--quiet] [project…]`: runs the build script of every workspace project that has one
// (or of the named projects and what they depend on), dependencies first, two at a time. A project
// whose sources, shared configuration and dependencies are unchanged since its last build here,
// and whose outputs are still the ones that build left, is skipped: so `pnpm test`, `pnpm test:unit`
// and `pnpm sandbox` build first and cost next to nothing when nothing changed. `--force` builds all,
// from scratch (the .tsbuildinfo files deleted first); `--quiet` says nothing when nothing is built.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inputKeys, listFiles, outputKey, outputPaths } from './fingerprint.mjs';
import { withLock } from './lock.mjs';
import { buildAll } from './schedule.mjs';
import { buildOrder, readProjects } from './workspace.mjs';

const started = performance.now();
const inSeconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const elapsed = () => inSeconds(performance.now() - started);
const log = (line) => process.stdout.write(`build: ${line}\n`);

/** Deletes the .tsbuildinfo files under `path`. */
function removeBuildInfo(path) {
  if (!existsSync(path) || !statSync(path).isDirectory()) return;
  for (const entry of readdirSync(path, { recursive: true })) {
    if (String(entry).endsWith('.tsbuildinfo')) rmSync(join(path, String(entry)), { force: true });
  }
}

async function main() {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const quiet = args.includes('--quiet');
  const targets = args.filter((arg) => arg !== '--force' && arg !== '--quiet');
  const unknownFlag = targets.find((arg) => arg.startsWith('-'));
  if (unknownFlag !== undefined) {
    throw new Error(`unknown flag ${unknownFlag} (usage: build [--force] [--quiet] [project…])`);
  }

  const projects = readProjects(root);
  const order = buildOrder(projects, targets);
  const stampDir = join(root, 'node_modules', '.cache', 'verify-kit-build');
  mkdirSync(stampDir, { recursive: true });

  await withLock(join(stampDir, 'lock'), async () => {
    const files = listFiles(root);
    const keys = files === undefined ? undefined : inputKeys(root, projects, files);
    const stampFile = (project) => join(stampDir, `${project.name.replace(/[@/]/g, '_')}.json`);
    const readStamp = (project) => {
      try {
        return JSON.parse(readFileSync(stampFile(project), 'utf8'));
      } catch {
        return undefined;
      }
    };
    const state = (project) => {
      if (keys === undefined) return undefined;
      const outputs = outputPaths(root, project, files);
      return { inputs: keys.get(project.name), outputs: outputKey(root, project, outputs) };
    };
    // With sources unchanged, outputs that are not the ones the last build left (changed or deleted
    // since) are rebuilt whole, as with --force or before a first build here: tsc -b trusts its
    // .tsbuildinfo and would not rewrite a deleted file.
    const needsBuild = (project) => {
      const stamp = readStamp(project);
      const now = state(project);
      if (stamp !== undefined && now !== undefined && !force) {
        if (stamp.inputs !== now.inputs) return true;
        if (stamp.outputs === now.outputs) return false;
      }
      for (const path of outputPaths(root, project, files ?? []))
        removeBuildInfo(join(root, project.dir, path));
      return true;
    };
    const onBuilt = (project) => {
      const now = state(project);
      if (now === undefined) rmSync(stampFile(project), { force: true });
      else writeFileSync(stampFile(project), `${JSON.stringify(now)}\n`);
    };
    const toBuild = order.filter((project) => needsBuild(project));
    if (toBuild.length === 0) {
      if (!quiet) log(`${order.length} projects unchanged since their last build (${elapsed()})`);
      return;
    }
    const unchanged = order.length - toBuild.length;
    log(
      `building ${toBuild.map((project) => project.name).join(', ')}${unchanged ? ` (${unchanged} unchanged)` : ''}`,
    );
    const ok = await buildAll(root, order, (project) => toBuild.includes(project), {
      onBuilt,
      onEnd: (project, ok, output, ms) => {
        log(`${project.name}: ${project.build} (${inSeconds(ms)})${ok ? '' : ' FAILED'}`);
        if (!ok) process.stdout.write(`${output.replace(/^/gm, '  ')}\n`);
      },
    });
    if (!ok) throw new Error('a build failed (its output is above)');
    log(`done (${elapsed()})`);
  });
}

main().catch((error) => {
  process.stderr.write(`build: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
