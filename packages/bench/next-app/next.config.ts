import type { NextConfig } from 'next';

const config: NextConfig = {
  // Under node_modules/, which git, the linters and README walkers skip (as examples/next does).
  distDir: 'node_modules/.next',
  // The bench's typecheck checks this app (tsconfig.typecheck.json): the build need not.
  typescript: { ignoreBuildErrors: true },
};

export default config;
