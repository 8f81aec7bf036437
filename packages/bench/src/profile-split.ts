import { execFileSync } from 'node:child_process';

/**
 * Where a sampled function's code lives: a package (from a JS function's file), a part of Node's
 * JavaScript, or the native side: V8 and Node's C++ (`node`), the C library, the kernel.
 */
export function areaOf(dso: string, symbol: string): string {
  if (dso.startsWith('[kernel')) return 'kernel';
  if (!dso.startsWith('[JIT]') && !dso.startsWith('perf-')) return dso === 'node' ? 'node (C++, V8)' : dso;
  const url = symbol.match(/ (\S+):\d+:\d+$/)?.[1];
  if (url === undefined) return symbol.startsWith('Builtin:') ? 'V8 builtins' : 'V8 generated code';
  if (url.startsWith('node:')) {
    const path = url.slice('node:'.length).split('/');
    return `node:${path[0] === 'internal' ? path.slice(0, 2).join('/') : path[0]}`;
  }
  const inModules = url.lastIndexOf('/node_modules/');
  if (inModules >= 0) {
    const [scope, name] = url.slice(inModules + '/node_modules/'.length).split('/');
    return scope?.startsWith('@') ? `${scope}/${name}` : (scope ?? url);
  }
  const inPackages = url.match(/\/packages\/([^/]+)\//);
  return inPackages ? `@verify-kit/${inPackages[1]}` : url.slice(url.lastIndexOf('/') + 1);
}

/** `JS:*decide file:///…/core/dist/decisions/decisions.js:46:3` → `decide core/dist/decisions/decisions.js:46`. */
function functionOf(symbol: string): string {
  const js = symbol.match(/^JS:[*~^]?(\S*) (\S+):(\d+):\d+$/);
  if (js === null) return symbol;
  const [, name, url, line] = js;
  const short = url!.replace(/^.*\/node_modules\//, '').replace(/^.*\/packages\//, '');
  return `${name || '(anonymous)'} ${short}:${line}`;
}

/**
 * A `perf record -e cpu-clock` file read by `perf report`: on-CPU time only (a process waiting for
 * the machine's other work is not sampled), µs, by area and by function; JS functions named through
 * the process's perf map (`node --perf-basic-prof`), each tier of one function counted as one.
 */
export function splitPerf(file: string) {
  const report = execFileSync(
    'perf',
    [
      'report',
      '-i',
      file,
      '--stdio',
      '--no-children',
      '--sort',
      'dso,sym',
      '-t',
      '|',
      '--percent-limit',
      '0',
    ],
    { encoding: 'utf8', maxBuffer: 64 * 2 ** 20, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const eventNs = Number(report.match(/# Event count \(approx\.\): (\d+)/)?.[1] ?? 0);
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const line of report.split('\n')) {
    if (line.startsWith('#') || !line.includes('|')) continue;
    const [percent, dso, sym] = line.split('|').map((cell) => cell.trim());
    const symbol = sym?.replace(/^\[[.k]\] /, '') ?? '';
    const us = (Number.parseFloat(percent ?? '0') / 100) * (eventNs / 1000);
    const area = areaOf(dso ?? '', symbol);
    areas.set(area, (areas.get(area) ?? 0) + us);
    const name = `${functionOf(symbol)}${area.startsWith('@') || area.startsWith('node:') ? '' : ` [${area}]`}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  return { busyUs: eventNs / 1000, areas, functions };
}
