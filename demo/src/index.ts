export type { ActivityEntry } from './activity-log.js';
export { parseDemoArgs } from './cli-options.js';
export { DEFAULT_SCENARIO, type Scenario, ScenarioSchema } from './scenario.js';
export { DEFAULT_PUBLIC_DIR, type DemoOptions, type RunningDemo, startDemo } from './start-demo.js';
