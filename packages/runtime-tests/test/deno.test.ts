import { deno } from './support/runtimes/deno.js';
import { describeRuntime } from './support/suite.js';

describeRuntime(deno);
