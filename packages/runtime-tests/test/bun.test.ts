import { bun } from './support/runtimes/bun.js';
import { describeRuntime } from './support/suite.js';

describeRuntime(bun);
