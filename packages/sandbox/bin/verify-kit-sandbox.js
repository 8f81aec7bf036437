#!/usr/bin/env node
// The `verify-kit-sandbox` command. A file of its own (not dist/cli.js itself) so that it exists
// before the first build: pnpm links a workspace's bins at install and warns for a missing file.
import '../dist/cli.js';
