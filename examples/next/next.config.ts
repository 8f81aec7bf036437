import type { NextConfig } from 'next';

const config: NextConfig = {
  // This repository's own choice, not the kit's: the build goes under node_modules/, which the
  // repository's linters and README walkers skip (a build elsewhere would be linted as source).
  distDir: 'node_modules/.next',
  // `pnpm lint` type-checks this app (tsconfig.typecheck.json): the build need not do it again.
  typescript: { ignoreBuildErrors: true },
};

export default config;
